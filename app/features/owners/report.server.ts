import { and, eq, gte, isNotNull, isNull, lt, ne, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, owner_report_runs, owners, properties, property_captacao, property_owners, property_views, visits } from "~/db/schema";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { enqueueMail } from "~/features/mail/outbox.server";
import { loadBrokerProfile } from "~/features/settings/settings.server";
import { brokerDay } from "~/lib/format";
import { isUuid } from "~/lib/ids";

/**
 * The owner report (issue 23, item 5; decision 024): for each owner with an e-mail who has not
 * opted out, and each of their listings, one e-mail through the outbox with the period's views,
 * leads and visits, the days on the market and the broker's note (the captação's report_note).
 * Monthly for the previous calendar month (the broker's time zone), once per owner, listing and
 * month (owner_report_runs, written with the mail); and on demand from the owner's page for the
 * last 30 days. Proposals are not counted: the CRM records none yet.
 */

export type Period = { label: string; from: string; to: string };
export type ListingFigures = { views: number; leads: number; visits: number; daysOnMarket: number };

/** The calendar month before the broker's today: from the 1st to the 1st of this month (exclusive). */
export function previousMonth(now: Date): Period & { key: string } {
  const [year, month] = brokerDay(now).split("-").map(Number);
  const start = new Date(Date.UTC(year, month - 2, 1));
  const key = start.toISOString().slice(0, 7);
  const monthName = new Intl.DateTimeFormat("pt-BR", { month: "long", year: "numeric", timeZone: "UTC" }).format(start);
  return { key, label: monthName, from: `${key}-01`, to: `${new Date(Date.UTC(year, month - 1, 1)).toISOString().slice(0, 10)}` };
}

/** The 30 days up to and including the broker's today. */
export function lastThirtyDays(now: Date): Period {
  const today = brokerDay(now);
  const to = new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${today}T12:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
  return { label: "últimos 30 dias", from, to };
}

/** Broker days [from, to) as instants: the broker's midnight is 03:00 UTC. */
const instant = (day: string) => new Date(`${day}T03:00:00Z`);

/** A listing's figures for a period, counted in SQL. */
export async function listingFigures(db: Database, propertyId: string, period: Period, now: Date): Promise<ListingFigures> {
  const [[views], [leadCount], [visitCount], [property]] = await Promise.all([
    db
      .select({ n: sql<number>`coalesce(sum(${property_views.views}), 0)::int` })
      .from(property_views)
      .where(and(eq(property_views.property_id, propertyId), gte(property_views.day, period.from), lt(property_views.day, period.to))),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(leads)
      .where(and(eq(leads.property_id, propertyId), gte(leads.created_at, instant(period.from)), lt(leads.created_at, instant(period.to)))),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(visits)
      .where(and(eq(visits.property_id, propertyId), ne(visits.status, "cancelada"), gte(visits.scheduled_at, instant(period.from)), lt(visits.scheduled_at, instant(period.to)))),
    db.select({ created_at: properties.created_at }).from(properties).where(eq(properties.id, propertyId)),
  ]);
  const daysOnMarket = property ? Math.max(0, Math.floor((now.getTime() - property.created_at.getTime()) / 86_400_000)) : 0;
  return { views: Number(views.n), leads: Number(leadCount.n), visits: Number(visitCount.n), daysOnMarket };
}

type Recipient = { ownerId: string; name: string; email: string; propertyId: string; codigo: string; title: string; note: string | null };

async function recipients(db: Database, ownerId?: string, notSentFor?: string): Promise<Recipient[]> {
  return db
    .select({
      ownerId: owners.id,
      name: owners.full_name,
      email: sql<string>`${owners.email}`,
      propertyId: properties.id,
      codigo: properties.codigo,
      title: properties.title,
      note: property_captacao.report_note,
    })
    .from(property_owners)
    .innerJoin(owners, eq(owners.id, property_owners.owner_id))
    .innerJoin(properties, eq(properties.id, property_owners.property_id))
    .leftJoin(property_captacao, eq(property_captacao.property_id, properties.id))
    .where(
      and(
        isNotNull(owners.email),
        eq(owners.report_opt_out, false),
        isNull(owners.anonymized_at),
        ownerId ? eq(owners.id, ownerId) : undefined,
        notSentFor
          ? sql`not exists (select 1 from ${owner_report_runs} where ${owner_report_runs.owner_id} = ${owners.id} and ${owner_report_runs.property_id} = ${properties.id} and ${owner_report_runs.period} = ${notSentFor})`
          : undefined,
      ),
    )
    .orderBy(owners.id, properties.codigo);
}

function reportMail(recipient: Recipient, period: Period, figures: ListingFigures, siteName: string) {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const lines = [
    `Olá, ${recipient.name}.`,
    "",
    `Este é o relatório do seu imóvel ${recipient.codigo} — ${recipient.title} (${period.label}):`,
    "",
    `- Visualizações do anúncio: ${figures.views}`,
    `- Contatos de interessados: ${figures.leads}`,
    `- Visitas: ${figures.visits}`,
    `- No mercado há ${plural(figures.daysOnMarket, "dia", "dias")}`,
    ...(recipient.note ? ["", `Nota do corretor: ${recipient.note}`] : []),
    "",
    `Se não quiser mais receber este relatório, responda a este e-mail e deixaremos de enviá-lo.`,
    "",
    siteName,
  ];
  return { subject: `Relatório do seu imóvel ${recipient.codigo} — ${period.label}`, text: lines.join("\n") };
}

/**
 * The monthly run (the hourly housekeeping and `npm run cli -- owner-reports`): the previous
 * month's report for every owner and listing not sent yet. Idempotent: the run row and the mail
 * go in one transaction, and a row already there means the mail was queued before.
 */
export async function sendMonthlyOwnerReports(db: Database, now: Date, periodKey?: string): Promise<{ queued: number; period: string }> {
  const period = periodKey ? monthPeriod(periodKey) : previousMonth(now);
  const { siteName } = await loadBrokerProfile(db);
  let queued = 0;
  for (const recipient of await recipients(db, undefined, period.key)) {
    const figures = await listingFigures(db, recipient.propertyId, period, now);
    const mail = reportMail(recipient, period, figures, siteName);
    const sent = await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(owner_report_runs)
        .values({ owner_id: recipient.ownerId, property_id: recipient.propertyId, period: period.key })
        .onConflictDoNothing()
        .returning();
      if (inserted.length === 0) return false;
      await enqueueMail(tx, { kind: "owner_report", to: recipient.email, ...mail });
      return true;
    });
    if (sent) queued += 1;
  }
  return { queued, period: period.key };
}

/** 'YYYY-MM' → that month (for the CLI's --period). */
export function monthPeriod(key: string): Period & { key: string } {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(key)) throw new RangeError("Período inválido: use AAAA-MM");
  const [year, month] = key.split("-").map(Number);
  const start = new Date(Date.UTC(year, month - 1, 1));
  const label = new Intl.DateTimeFormat("pt-BR", { month: "long", year: "numeric", timeZone: "UTC" }).format(start);
  return { key, label, from: `${key}-01`, to: new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10) };
}

/** On demand from the owner's page: the last 30 days, one mail per listing, now. */
export async function sendOwnerReportNow(db: Database, actor: AuditActor, ownerId: string, now: Date): Promise<number | "missing" | "no-email"> {
  if (!isUuid(ownerId)) return "missing";
  const [owner] = await db.select({ email: owners.email, optOut: owners.report_opt_out, anonymized: owners.anonymized_at }).from(owners).where(eq(owners.id, ownerId));
  if (!owner) return "missing";
  if (!owner.email || owner.optOut || owner.anonymized) return "no-email";
  const period = lastThirtyDays(now);
  const { siteName } = await loadBrokerProfile(db);
  const list = await recipients(db, ownerId);
  const mails: { recipient: Recipient; mail: { subject: string; text: string } }[] = [];
  for (const recipient of list) mails.push({ recipient, mail: reportMail(recipient, period, await listingFigures(db, recipient.propertyId, period, now), siteName) });
  await db.transaction(async (tx) => {
    for (const { recipient, mail } of mails) await enqueueMail(tx, { kind: "owner_report", to: recipient.email, ...mail });
    await recordAudit(tx, { actor, action: "owner.report", entity: "owner", entityId: ownerId, details: { listings: mails.length } });
  });
  return mails.length;
}
