import { and, eq, gte, isNotNull, lt, or, isNull, ne, sql } from "drizzle-orm";
import { createEvents } from "ics";
import type { Database } from "~/db/client.server";
import { leads, properties, visits } from "~/db/schema";
import type { Tx } from "~/features/audit/audit.server";
import { composeMail } from "~/features/mail/compose.server";
import { enqueueMail } from "~/features/mail/outbox.server";
import type { BrokerProfile } from "~/features/site/broker-profile";
import { loadBrokerProfile } from "~/features/settings/settings.server";
import { endOfBrokerDay, formatDateTime } from "~/lib/format";
import { visitUid } from "./calendar.server";

/**
 * The visitor's side of a visit (issue 25, item 6): when staff schedule, reschedule or cancel a
 * visit whose lead left an e-mail, the visitor gets a message with the date (the broker's zone),
 * the address, the broker's phone and an .ics; and a reminder the day before. Everything is
 * queued through the outbox in the transaction that makes the change (decision 032).
 */

/** The broker's name and phone as the settings hold them now. */
export async function visitorMailDeps(db: Database, publicUrl: string): Promise<VisitorMailDeps> {
  const broker = await loadBrokerProfile(db);
  return { publicUrl, broker: { name: broker.name, siteName: broker.siteName, phone: broker.phone } };
}

const PRODUCT_ID = "-//Corretor de imoveis//Visitas//PT-BR";
const VISIT_MINUTES = 60;

export type VisitorMailKind = "confirmation" | "update" | "cancellation" | "reminder";

/** What the visitor's mail needs from outside the transaction. */
export type VisitorMailDeps = { publicUrl: string; broker: Pick<BrokerProfile, "name" | "siteName" | "phone"> };

type VisitRow = {
  id: string;
  scheduled_at: Date;
  lead_id: string;
  email: string | null;
  full_name: string;
  property: { title: string; address: string } | null;
};

/** The address a visitor can find: the street when the listing has one, else bairro and city. */
function addressOf(row: { street_address: string | null; address_number: string | null; address_complement: string | null; neighborhood: string; city: string }): string {
  const street = row.street_address ? [row.street_address, row.address_number, row.address_complement].filter(Boolean).join(", ") : null;
  return [street, row.neighborhood, row.city].filter(Boolean).join(" — ");
}

async function readVisit(tx: Tx | Database, id: string): Promise<VisitRow | null> {
  const [row] = await tx
    .select({
      id: visits.id,
      scheduled_at: visits.scheduled_at,
      lead_id: visits.lead_id,
      email: leads.email,
      full_name: leads.full_name,
      title: properties.title,
      street_address: properties.street_address,
      address_number: properties.address_number,
      address_complement: properties.address_complement,
      neighborhood: properties.neighborhood,
      city: properties.city,
    })
    .from(visits)
    .innerJoin(leads, eq(leads.id, visits.lead_id))
    .leftJoin(properties, eq(properties.id, visits.property_id))
    .where(eq(visits.id, id))
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    scheduled_at: new Date(row.scheduled_at),
    lead_id: row.lead_id,
    email: row.email,
    full_name: row.full_name,
    property: row.title ? { title: row.title, address: addressOf({ ...row, neighborhood: row.neighborhood!, city: row.city! }) } : null,
  };
}

const MEETING_POINT = "Ponto de encontro: o corretor confirma o endereço com você pelo telefone";

/** The visitor's calendar file: the same UID for every version, SEQUENCE growing with each. */
export function visitorIcs(visit: VisitRow, deps: VisitorMailDeps, sequence: number, cancelled: boolean): string {
  const { error, value } = createEvents(
    [
      {
        uid: visitUid(visit.id, deps.publicUrl),
        title: `Visita: ${visit.property?.title ?? "imóvel"} — ${deps.broker.name}`,
        start: visit.scheduled_at.getTime(),
        startInputType: "utc",
        startOutputType: "utc",
        duration: { minutes: VISIT_MINUTES },
        location: visit.property?.address ?? MEETING_POINT,
        description: `Corretor: ${deps.broker.name}\nTelefone: ${deps.broker.phone}`,
        status: cancelled ? "CANCELLED" : "CONFIRMED",
        sequence,
        productId: PRODUCT_ID,
      },
    ],
    { productId: PRODUCT_ID, method: cancelled ? "CANCEL" : "PUBLISH" },
  );
  if (error || value === null) throw error ?? new Error("ics produced nothing");
  return value;
}

const SUBJECTS: Record<VisitorMailKind, string> = {
  confirmation: "Visita confirmada",
  update: "Visita reagendada",
  cancellation: "Visita cancelada",
  reminder: "Lembrete: sua visita é amanhã",
};

function visitorMail(visit: VisitRow, deps: VisitorMailDeps, kind: VisitorMailKind) {
  const when = formatDateTime(visit.scheduled_at).replace(", ", " às ");
  const where = visit.property ? `Endereço: ${visit.property.address}` : MEETING_POINT;
  const intro: Record<VisitorMailKind, string> = {
    confirmation: `Sua visita${visit.property ? ` ao imóvel "${visit.property.title}"` : ""} está confirmada para ${when} (horário de Natal).`,
    update: `Sua visita${visit.property ? ` ao imóvel "${visit.property.title}"` : ""} mudou de horário: agora é ${when} (horário de Natal).`,
    cancellation: `Sua visita marcada para ${when} foi cancelada. Se quiser marcar outro dia, fale com o corretor.`,
    reminder: `Lembrete: amanhã, ${when} (horário de Natal), é a sua visita${visit.property ? ` ao imóvel "${visit.property.title}"` : ""}.`,
  };
  const paragraphs = [intro[kind]];
  if (kind !== "cancellation") paragraphs.push(where);
  paragraphs.push(`Corretor: ${deps.broker.name} — telefone ${deps.broker.phone}`);
  if (kind !== "cancellation") paragraphs.push("O convite em anexo (.ics) coloca a visita na sua agenda.");
  return composeMail({
    subject: `${SUBJECTS[kind]} — ${deps.broker.siteName}`,
    greeting: `Olá, ${visit.full_name.split(/\s+/)[0]}!`,
    paragraphs,
    footer: `Você recebeu este e-mail porque agendou uma visita com ${deps.broker.name}. Para mudar ou cancelar, responda ou ligue para ${deps.broker.phone}.`,
  });
}

/**
 * Queues the visitor's message about a visit in the caller's transaction, when the lead has an
 * e-mail. Confirmations, updates and cancellations carry the next SEQUENCE (recorded on the
 * visit); a reminder repeats the last one (it changes nothing in the calendar).
 */
export async function queueVisitorMail(tx: Tx, deps: VisitorMailDeps, visitId: string, kind: VisitorMailKind): Promise<boolean> {
  const visit = await readVisit(tx, visitId);
  if (!visit?.email) return false;
  // A visit recorded after the fact (or cancelled once past) is nothing to tell the visitor.
  if (visit.scheduled_at.getTime() <= Date.now()) return false;
  const [state] = await tx.select({ sequence: visits.confirmation_sequence }).from(visits).where(eq(visits.id, visitId));
  // Nothing to update or cancel in a calendar that never got the visit.
  if ((kind === "update" || kind === "cancellation") && state?.sequence == null) return false;
  const sequence = kind === "reminder" ? (state?.sequence ?? 0) : state?.sequence == null ? 0 : state.sequence + 1;
  if (kind !== "reminder") await tx.update(visits).set({ confirmation_sequence: sequence }).where(eq(visits.id, visitId));
  const mail = visitorMail(visit, deps, kind);
  await enqueueMail(tx, {
    kind: `visit-${kind}`,
    to: visit.email,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    leadId: visit.lead_id,
    icsAttachment: visitorIcs(visit, deps, sequence, kind === "cancellation"),
  });
  return true;
}

/**
 * The day-before reminders (hourly housekeeping): one per scheduled visit tomorrow (the broker's
 * calendar day) whose lead has an e-mail. The claim is a conditional UPDATE of `reminded_for`
 * to the visit's time: a second run, or another process at once, finds nothing left to claim
 * (PostgreSQL re-checks the condition on the row it waited for). A rescheduled visit is due again.
 */
export async function queueVisitReminders(db: Database, deps: VisitorMailDeps, now = new Date()): Promise<number> {
  const from = endOfBrokerDay(now);
  const until = new Date(from.getTime() + 86_400_000);
  return db.transaction(async (tx) => {
    const claimed = await tx
      .update(visits)
      .set({ reminded_for: sql`${visits.scheduled_at}` })
      .where(
        and(
          eq(visits.status, "agendada"),
          gte(visits.scheduled_at, from),
          lt(visits.scheduled_at, until),
          or(isNull(visits.reminded_for), ne(visits.reminded_for, visits.scheduled_at)),
          sql`exists (select 1 from ${leads} where ${leads.id} = ${visits.lead_id} and ${isNotNull(leads.email)})`,
        ),
      )
      .returning({ id: visits.id });
    let queued = 0;
    for (const { id } of claimed) if (await queueVisitorMail(tx, deps, id, "reminder")) queued++;
    return queued;
  });
}
