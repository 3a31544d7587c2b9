import { sql } from "drizzle-orm";
import { type Database, queryRows } from "~/db/client.server";
import { leadPath } from "~/features/leads/contact-links";
import { fits } from "~/features/matching/match.server";
import { composeMail } from "~/features/mail/compose.server";
import { type DbOrTx, enqueueMail } from "~/features/mail/outbox.server";
import type { Env } from "~/lib/env.server";
import { toBrokerDateTimeInput } from "~/lib/format";
import { claimEvent, enqueuePush, firstName } from "./queue.server";

/**
 * The alerts that come from the clock (decision 030), looked for every few seconds by the push
 * worker under a job lock: 'Próximo contato' reminders (a push, and an e-mail to whoever asked
 * for one), 'visita em 1 h', proposals on their last day, and new matches (a listing published that fits open leads' search
 * profiles). Each event is claimed once in `push_events` — a reminder by (lead, time), so setting
 * a new time arms it again — in the transaction that queues its alerts. Leads have no owner in
 * this CRM: every staff member who wants the kind gets it.
 */

export const REMINDER_KIND = "reminder";
/** Reminders, visits and listings older than this when first seen (the server was off) are let go. */
const LOOKBACK_MS = 24 * 3600_000;
const VISIT_NOTICE_MS = 3600_000;
/** At most this many events of each kind per round; the next round takes the rest. */
const BATCH = 100;

export type ScheduleResult = { reminders: number; visits: number; matches: number; proposals: number; queued: number; emails: number };

const hhmm = (at: Date) => toBrokerDateTimeInput(at).slice(11, 16);

type Due = { id: string; key: string; full_name: string; at: Date | string };

async function reminderEmails(tx: DbOrTx, env: Pick<Env, "publicUrl">, lead: Due): Promise<number> {
  const recipients = await queryRows<{ email: string }>(
    tx as Database,
    sql`
      select u.email from push_preferences p
      join "user" u on u.id = p.user_id
      where p.reminder_email and 'proximo_contato' = any(p.kinds)
        and exists (select 1 from user_roles r where r.user_id = p.user_id and r.role in ('admin', 'corretor'))`,
  );
  const name = firstName(lead.full_name);
  const mail = composeMail({
    subject: `Lembrete: próximo contato com ${name}`,
    paragraphs: [`Está na hora do próximo contato com ${name} (marcado para ${hhmm(new Date(lead.at))}).`],
    action: { label: "Abrir o lead no CRM", url: `${env.publicUrl}${leadPath(lead.id)}` },
    footer: "Você recebe este lembrete porque escolheu lembretes por e-mail em Minha conta, no CRM.",
  });
  for (const { email } of recipients) await enqueueMail(tx, { kind: REMINDER_KIND, to: email, leadId: lead.id, ...mail });
  return recipients.length;
}

export async function runPushSchedule(runtime: { db: Database; env: Pick<Env, "publicUrl"> }, now: Date): Promise<ScheduleResult> {
  const { db, env } = runtime;
  const result: ScheduleResult = { reminders: 0, visits: 0, matches: 0, proposals: 0, queued: 0, emails: 0 };
  const since = new Date(now.getTime() - LOOKBACK_MS);

  const reminders = await queryRows<Due>(
    db,
    sql`
      select id, full_name, next_contact_at as at,
        'next-contact:' || id || ':' || floor(extract(epoch from next_contact_at) * 1000)::bigint as key
      from leads
      where next_contact_at <= ${now} and next_contact_at > ${since}
        and not exists (select 1 from push_events e
          where e.key = 'next-contact:' || leads.id || ':' || floor(extract(epoch from leads.next_contact_at) * 1000)::bigint)
      order by next_contact_at
      limit ${BATCH}`,
  );
  for (const lead of reminders) {
    await db.transaction(async (tx) => {
      if (!(await claimEvent(tx, lead.key))) return;
      result.reminders++;
      result.queued += await enqueuePush(tx, {
        key: lead.key,
        kind: "proximo_contato",
        title: "Próximo contato",
        body: `Hora de falar com ${firstName(lead.full_name)} (${hhmm(new Date(lead.at))}).`,
        url: leadPath(lead.id),
        leadId: lead.id,
      });
      result.emails += await reminderEmails(tx, env, lead);
    });
  }

  const visits = await queryRows<Due & { lead_id: string }>(
    db,
    sql`
      select v.id, v.lead_id, l.full_name, v.scheduled_at as at,
        'visit-soon:' || v.id || ':' || floor(extract(epoch from v.scheduled_at) * 1000)::bigint as key
      from visits v join leads l on l.id = v.lead_id
      where v.status = 'agendada' and v.scheduled_at > ${now} and v.scheduled_at <= ${new Date(now.getTime() + VISIT_NOTICE_MS)}
        and not exists (select 1 from push_events e
          where e.key = 'visit-soon:' || v.id || ':' || floor(extract(epoch from v.scheduled_at) * 1000)::bigint)
      order by v.scheduled_at
      limit ${BATCH}`,
  );
  for (const visit of visits) {
    await db.transaction(async (tx) => {
      if (!(await claimEvent(tx, visit.key))) return;
      result.visits++;
      result.queued += await enqueuePush(tx, {
        key: visit.key,
        kind: "visita_1h",
        title: "Visita em 1 hora",
        body: `Visita com ${firstName(visit.full_name)} às ${hhmm(new Date(visit.at))}.`,
        url: leadPath(visit.lead_id),
        leadId: visit.lead_id,
      });
    });
  }

  // A listing published (status became 'disponivel'): how many open leads' profiles it fits.
  const published = await queryRows<{ id: string; property_id: string; codigo: string; leads: number }>(
    db,
    sql`
      select e.id, e.property_id, properties.codigo,
        (select count(distinct lead_profiles.lead_id)::int from lead_profiles join leads l on l.id = lead_profiles.lead_id
          where l.status not in ('convertido', 'perdido') and ${fits}) as leads
      from property_status_events e join properties on properties.id = e.property_id
      where e.to_status = 'disponivel' and e.kind <> 'backfill' and e.at > ${since} and e.at <= ${now}
        and not exists (select 1 from push_events pe where pe.key = 'match:' || e.id)
      order by e.at
      limit ${BATCH}`,
  );
  for (const event of published) {
    await db.transaction(async (tx) => {
      const key = `match:${event.id}`;
      if (!(await claimEvent(tx, key)) || Number(event.leads) === 0) return;
      result.matches++;
      const n = Number(event.leads);
      result.queued += await enqueuePush(tx, {
        key,
        kind: "match_novo",
        title: "Match novo",
        body: `${event.codigo}: ${n === 1 ? "1 lead combina" : `${n} leads combinam`} com este imóvel.`,
        url: `/crm/imoveis/${event.property_id}/leads`,
      });
    });
  }

  await proposalsExpiringToday(db, now, result);
  return result;
}

/** From this hour (broker's time) on its last day, an open proposal's 'Proposta expirando' goes out: never in the night. */
export const PROPOSAL_NOTICE_HOUR = 9;

/** 'Proposta expirando': an open proposal on its last valid day (decision 030), once per proposal and validity date. */
async function proposalsExpiringToday(db: Database, now: Date, result: ScheduleResult): Promise<void> {
  const local = toBrokerDateTimeInput(now);
  if (Number(local.slice(11, 13)) < PROPOSAL_NOTICE_HOUR) return;
  const today = local.slice(0, 10);
  const due = await queryRows<{ id: string; lead_id: string; full_name: string; key: string }>(
    db,
    sql`
      select p.id, p.lead_id, l.full_name, 'proposal-expiring:' || p.id || ':' || p.valid_until as key
      from proposals p join leads l on l.id = p.lead_id
      where p.status = 'em_negociacao' and p.valid_until = ${today}
        and not exists (select 1 from push_events e where e.key = 'proposal-expiring:' || p.id || ':' || p.valid_until)
      limit ${BATCH}`,
  );
  for (const proposal of due) {
    await db.transaction(async (tx) => {
      if (!(await claimEvent(tx, proposal.key))) return;
      result.proposals++;
      result.queued += await enqueuePush(tx, {
        key: proposal.key,
        kind: "proposta_expirando",
        title: "Proposta expirando",
        body: `A proposta de ${firstName(proposal.full_name)} vence hoje.`,
        url: leadPath(proposal.lead_id),
        leadId: proposal.lead_id,
      });
    });
  }
}
