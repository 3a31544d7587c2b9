import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { ExportLinks } from "./export-links";
import { LEAD_STATUS_LABELS, LEAD_STATUS_VARIANT, originLabel } from "~/features/leads/labels";
import { formatDateTime } from "~/lib/format";
import type { PersonData } from "../person.server";
import { AnonymizeDialog, useAnonymizeAnswerToast } from "./anonymize-dialog";

const VISIT_STATUS_LABELS: Record<string, string> = { agendada: "Agendada", realizada: "Realizada", cancelada: "Cancelada" };
const MAIL_STATUS_LABELS: Record<string, string> = { pending: "Na fila", sent: "Enviado", failed: "Não enviado" };

function Section({ id, title, count, children }: { id: string; title: string; count: number; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid gap-2">
      <h3 id={id} className="text-sm font-semibold">
        {title} <span className="font-normal text-muted-foreground">({count})</span>
      </h3>
      {count === 0 ? <p className="text-sm text-muted-foreground">Nenhum registro.</p> : children}
    </section>
  );
}

/** What is held about one person, with 'Exportar dados' and 'Anonimizar'. */
export function PersonView({ person }: { person: PersonData }) {
  useAnonymizeAnswerToast();
  const anchor = person.leads.find((lead) => lead.id === person.anchorId) ?? person.leads[0];
  const allAnonymized = person.leads.every((lead) => lead.anonymized);
  const notes = person.events.filter((event) => event.kind === "note");
  const statusChanges = person.events.filter((event) => event.kind === "status").length;
  const leadName = (id: string) => person.leads.find((lead) => lead.id === id)?.full_name ?? "";

  return (
    <Card className="grid gap-5 p-4 sm:p-5" role="region" aria-labelledby="privacy-person-title">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 id="privacy-person-title" className="flex items-center gap-2 text-lg font-semibold">
            <Icon name="user" className="size-5 text-primary" /> {anchor.full_name}
          </h2>
          <p className="text-sm text-muted-foreground">
            {person.leads.length} {person.leads.length === 1 ? "lead" : "leads"} · {person.events.length} {person.events.length === 1 ? "registro" : "registros"} no histórico ·{" "}
            {person.visits.length} {person.visits.length === 1 ? "visita" : "visitas"} · {person.emails.length}{" "}
            {person.emails.length === 1 ? "e-mail" : "e-mails"}
          </p>
          {allAnonymized && (
            <p className="mt-2 inline-flex items-center gap-1.5 text-sm font-medium text-green-800">
              <Icon name="circle-check" className="size-4" /> Dados anonimizados
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <ExportLinks query={`lead=${person.anchorId}`} />
          {!allAnonymized && <AnonymizeDialog anchorId={person.anchorId} name={anchor.full_name} leadIds={person.leads.map((lead) => lead.id)} />}
        </div>
      </div>

      <Section id="privacy-leads" title="Leads" count={person.leads.length}>
        <ul className="grid gap-2 md:grid-cols-2">
          {person.leads.map((lead) => (
            <li key={lead.id} className="rounded-md border border-border p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <Link to={`/crm/leads/${lead.id}`} className="font-semibold text-primary underline-offset-4 hover:underline">
                  {lead.full_name}
                </Link>
                <Badge variant={LEAD_STATUS_VARIANT[lead.status]}>{LEAD_STATUS_LABELS[lead.status]}</Badge>
              </div>
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
                <dt className="text-muted-foreground">Telefone</dt>
                <dd className="break-all">{lead.phone}</dd>
                <dt className="text-muted-foreground">E-mail</dt>
                <dd className="break-all">{lead.email ?? "—"}</dd>
                <dt className="text-muted-foreground">Origem</dt>
                <dd>{originLabel(lead)}</dd>
                <dt className="text-muted-foreground">Criado em</dt>
                <dd>{formatDateTime(lead.created_at)}</dd>
                {lead.property && (
                  <>
                    <dt className="text-muted-foreground">Imóvel</dt>
                    <dd>
                      {lead.property.codigo} — {lead.property.title}
                    </dd>
                  </>
                )}
                {lead.notes && (
                  <>
                    <dt className="text-muted-foreground">Observações</dt>
                    <dd className="whitespace-pre-line break-words">{lead.notes}</dd>
                  </>
                )}
              </dl>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="privacy-notes" title="Anotações" count={notes.length}>
        <ul className="grid gap-2 text-sm">
          {notes.map((note) => (
            <li key={note.id} className="rounded-md bg-muted/60 p-3">
              <p className="text-xs text-muted-foreground">
                {formatDateTime(note.at)} · {note.actor_name ?? "Sistema"} · {leadName(note.lead_id)}
              </p>
              <p className="mt-1 whitespace-pre-line break-words">{note.body}</p>
            </li>
          ))}
        </ul>
      </Section>
      {statusChanges > 0 && (
        <p className="-mt-3 text-xs text-muted-foreground">
          O histórico tem também {statusChanges} {statusChanges === 1 ? "mudança" : "mudanças"} de status (na exportação).
        </p>
      )}

      <Section id="privacy-visits" title="Visitas" count={person.visits.length}>
        <ul className="grid gap-2 text-sm">
          {person.visits.map((visit) => (
            <li key={visit.id} className="rounded-md border border-border p-3">
              <p className="font-medium">
                {formatDateTime(visit.scheduled_at)} · {VISIT_STATUS_LABELS[visit.status] ?? visit.status}
              </p>
              {visit.property && (
                <p className="text-muted-foreground">
                  {visit.property.codigo} — {visit.property.title}
                </p>
              )}
              {visit.notes && <p className="mt-1 whitespace-pre-line break-words">{visit.notes}</p>}
            </li>
          ))}
        </ul>
      </Section>

      <Section id="privacy-emails" title="E-mails sobre este titular" count={person.emails.length}>
        <ul className="grid gap-2 text-sm">
          {person.emails.map((mail) => (
            <li key={mail.id} className="rounded-md border border-border p-3">
              <p className="font-medium break-words">{mail.subject}</p>
              <p className="text-muted-foreground break-all">
                {formatDateTime(mail.sent_at ?? mail.created_at)} · para {mail.to_address} · {MAIL_STATUS_LABELS[mail.status] ?? mail.status}
              </p>
            </li>
          ))}
        </ul>
      </Section>
    </Card>
  );
}
