import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Icon } from "~/components/ui/icon";
import { Table, Td, Th } from "~/components/ui/table";
import { RowActions } from "~/features/crm/components/row-actions";
import { telLink, whatsappLink } from "~/features/site/broker-profile";
import { formatDateTime } from "~/lib/format";
import type { CrmLead } from "../crm.server";
import { INTEREST_LABELS, LEAD_STATUS_LABELS, LEAD_STATUS_VARIANT, ORIGIN_LABELS } from "../labels";

/** A Brazilian number as wa.me wants it: country code and digits. */
export function whatsappNumber(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  return digits.length <= 11 ? `55${digits}` : digits;
}

function Phone({ lead }: { lead: CrmLead }) {
  return (
    <span className="flex items-center gap-1">
      <a href={telLink(lead.phone)} className="whitespace-nowrap font-medium text-primary underline-offset-4 hover:underline">
        {lead.phone}
      </a>
      <a
        href={whatsappLink(whatsappNumber(lead.phone), `Olá, ${lead.full_name.split(" ")[0]}!`)}
        target="_blank"
        rel="noopener noreferrer"
        className="grid size-9 place-items-center rounded-md text-whatsapp hover:bg-green-50"
      >
        <Icon name="whatsapp" className="size-5" label={`WhatsApp de ${lead.full_name}`} />
      </a>
    </span>
  );
}

function PropertyLink({ lead }: { lead: CrmLead }) {
  if (!lead.property) return null;
  return (
    <Link to={`/imoveis/${lead.property.id}`} target="_blank" className="text-xs text-primary underline-offset-4 hover:underline">
      Visita: {lead.property.codigo}
    </Link>
  );
}

/** Spec §2 "CRM leads": a table on wide screens, cards on a phone. */
export function LeadsTable({
  leads,
  emptyText = "Nenhum lead cadastrado",
  onEdit,
  onDelete,
}: {
  leads: CrmLead[];
  emptyText?: string;
  onEdit: (lead: CrmLead) => void;
  onDelete: (lead: CrmLead) => void;
}) {
  if (leads.length === 0) return <p className="p-10 text-center text-muted-foreground">{emptyText}</p>;
  return (
    <>
      <div className="hidden lg:block">
        <Table>
          <thead>
            <tr>
              <Th>Nome</Th>
              <Th>Telefone</Th>
              <Th>Email</Th>
              <Th>Interesse</Th>
              <Th>Origem</Th>
              <Th>Status</Th>
              <Th>Ações</Th>
            </tr>
          </thead>
          <tbody>
            {leads.map((lead) => (
              <tr key={lead.id} className="hover:bg-muted/50">
                <Td>
                  <p className="font-medium">{lead.full_name}</p>
                  <p className="text-xs text-muted-foreground">{formatDateTime(lead.created_at)}</p>
                  <PropertyLink lead={lead} />
                </Td>
                <Td>
                  <Phone lead={lead} />
                </Td>
                <Td className="max-w-48 truncate">{lead.email ?? "-"}</Td>
                <Td>{INTEREST_LABELS[lead.interest_type]}</Td>
                <Td>{ORIGIN_LABELS[lead.origin]}</Td>
                <Td>
                  <Badge variant={LEAD_STATUS_VARIANT[lead.status]}>{LEAD_STATUS_LABELS[lead.status]}</Badge>
                </Td>
                <Td>
                  <RowActions subject={`lead de ${lead.full_name}`} onEdit={() => onEdit(lead)} onDelete={() => onDelete(lead)} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
      <ul className="grid gap-3 p-3 lg:hidden">
        {leads.map((lead) => (
          <li key={lead.id} className="rounded-lg border border-border bg-white p-4">
            <div className="flex items-start justify-between gap-2">
              <div className="min-w-0">
                <p className="font-semibold">{lead.full_name}</p>
                <p className="text-xs text-muted-foreground">
                  {formatDateTime(lead.created_at)} · {ORIGIN_LABELS[lead.origin]} · {INTEREST_LABELS[lead.interest_type]}
                </p>
                <PropertyLink lead={lead} />
              </div>
              <Badge variant={LEAD_STATUS_VARIANT[lead.status]}>{LEAD_STATUS_LABELS[lead.status]}</Badge>
            </div>
            <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm">
              <div>
                <Phone lead={lead} />
                <p className="truncate text-muted-foreground">{lead.email ?? "-"}</p>
              </div>
              <RowActions subject={`lead de ${lead.full_name}`} onEdit={() => onEdit(lead)} onDelete={() => onDelete(lead)} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
