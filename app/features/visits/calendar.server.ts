import crypto from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { createEvents, type EventAttributes } from "ics";
import type { Database } from "~/db/client.server";
import { calendar_feeds, user, user_roles } from "~/db/schema";
import { ROLES } from "~/db/values";
import { type AuditActor, recordAudit, type Tx } from "~/features/audit/audit.server";
import { toBrokerDateTimeInput } from "~/lib/format";
import type { ReminderForCalendar, VisitForCalendar } from "./calendar-data.server";

/**
 * Visits as iCalendar: one visit as an .ics download, and each staff member's private feed
 * (/calendario/<token>.ics) that phone and Google calendars subscribe to. The feed's URL is its
 * only key (calendar apps send no cookie), so we keep only the token's sha256: a copy of the
 * database does not give anyone the feeds, and a lost URL is replaced by regenerating it.
 */

const PRODUCT_ID = "-//Corretor de imoveis//Agenda de visitas//PT-BR";
const VISIT_MINUTES = 60;

/** Stable per visit and per site, so a feed refresh updates an event instead of adding a copy. */
export function visitUid(visitId: string, publicUrl: string): string {
  return `visita-${visitId}@${new URL(publicUrl).hostname}`;
}

export function visitTitle(visit: Pick<VisitForCalendar, "lead" | "property">): string {
  return `Visita: ${visit.property?.title ?? "imóvel a definir"} — ${visit.lead.full_name}`;
}

function toEvent(visit: VisitForCalendar, publicUrl: string): EventAttributes {
  const leadUrl = `${publicUrl}/crm/leads/${visit.lead.id}`;
  const description = [
    `Telefone: ${visit.lead.phone}`,
    visit.property ? `Imóvel: ${visit.property.codigo} — ${visit.property.title}` : null,
    visit.notes ? `Observações: ${visit.notes}` : null,
    `No CRM: ${leadUrl}`,
  ]
    .filter(Boolean)
    .join("\n");
  return {
    uid: visitUid(visit.id, publicUrl),
    title: visitTitle(visit),
    // In UTC ("…Z"): every calendar places it right, whatever zone the phone is in.
    start: visit.scheduled_at.getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    duration: { minutes: VISIT_MINUTES },
    location: visit.property ? `${visit.property.neighborhood}, ${visit.property.city}` : undefined,
    description,
    url: leadUrl,
    status: visit.status === "cancelada" ? "CANCELLED" : "CONFIRMED",
    created: visit.created_at.getTime(),
    lastModified: visit.updated_at.getTime(),
    // Calendars take the copy with the higher SEQUENCE: minutes since 2020 grow with every edit.
    sequence: Math.max(0, Math.floor((visit.updated_at.getTime() - Date.UTC(2020, 0, 1)) / 60_000)),
    productId: PRODUCT_ID,
  };
}

/** A 'Próximo contato' reminder in the feed (issue 25): the lead's first name and the CRM link only. */
const REMINDER_MINUTES = 15;

function toReminderEvent(reminder: ReminderForCalendar, publicUrl: string): EventAttributes {
  const leadUrl = `${publicUrl}/crm/leads/${reminder.leadId}`;
  return {
    // One event per lead: a new time moves it instead of adding another.
    uid: `proximo-contato-${reminder.leadId}@${new URL(publicUrl).hostname}`,
    title: `Próximo contato: ${reminder.firstName}`,
    start: reminder.at.getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    duration: { minutes: REMINDER_MINUTES },
    description: `No CRM: ${leadUrl}`,
    url: leadUrl,
    status: "CONFIRMED",
    sequence: Math.max(0, Math.floor((reminder.at.getTime() - Date.UTC(2020, 0, 1)) / 60_000)),
    productId: PRODUCT_ID,
  };
}

/** The calendar text, or throws (ics refuses an event it cannot write). */
export function calendarText(visitList: VisitForCalendar[], publicUrl: string, calName?: string, reminders: ReminderForCalendar[] = []): string {
  const { error, value } = createEvents(
    [...visitList.map((visit) => toEvent(visit, publicUrl)), ...reminders.map((reminder) => toReminderEvent(reminder, publicUrl))],
    { productId: PRODUCT_ID, calName },
  );
  if (error || value === null) throw error ?? new Error("ics produced nothing");
  return value;
}

/** "visita-2026-11-25-1430.ics": the day and time say which visit the file is, no personal data. */
export function visitFilename(visit: Pick<VisitForCalendar, "scheduled_at">): string {
  return `visita-${toBrokerDateTimeInput(visit.scheduled_at).replace("T", "-").replace(":", "")}.ics`;
}

// --- Private feeds ---

/** The file name in a feed URL: 32 random bytes as base64url, then ".ics". */
const FEED_FILE = /^([A-Za-z0-9_-]{43})\.ics$/;

export const hashToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

export function feedUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/calendario/${token}.ics`;
}

/** Whether the user has a feed (the URL itself cannot be shown again: only its hash is kept). */
export async function feedStatus(db: Database, userId: string): Promise<{ active: boolean; createdAt: string | null }> {
  const [row] = await db.select({ created_at: calendar_feeds.created_at }).from(calendar_feeds).where(eq(calendar_feeds.user_id, userId)).limit(1);
  return { active: Boolean(row), createdAt: row ? new Date(row.created_at).toISOString() : null };
}

/**
 * A new feed URL for the user; an older one stops working at once (one row per user). The
 * token is returned this once and never stored.
 */
export async function regenerateFeed(db: Database, actor: NonNullable<AuditActor>): Promise<string> {
  const token = crypto.randomBytes(32).toString("base64url");
  const token_hash = hashToken(token);
  await db.transaction(async (tx) => {
    await tx
      .insert(calendar_feeds)
      .values({ user_id: actor.id, token_hash })
      .onConflictDoUpdate({ target: calendar_feeds.user_id, set: { token_hash, created_at: new Date() } });
    await recordAudit(tx, { actor, action: "calendar_feed.create", entity: "user", entityId: actor.id });
  });
  return token;
}

export async function revokeFeed(db: Database, actor: NonNullable<AuditActor>): Promise<boolean> {
  return db.transaction((tx) => revokeFeedInTx(tx, actor, actor.id));
}

/**
 * Turns a user's feed off in the caller's transaction; audited only when there was one. `reason`
 * says why when it is not the owner's own 'Desativar' (sign-out, a new password).
 */
export async function revokeFeedInTx(tx: Tx, actor: AuditActor, userId: string, reason?: string): Promise<boolean> {
  const removed = await tx.delete(calendar_feeds).where(eq(calendar_feeds.user_id, userId)).returning({ id: calendar_feeds.user_id });
  if (removed.length === 0) return false;
  await recordAudit(tx, { actor, action: "calendar_feed.revoke", entity: "user", entityId: userId, details: reason ? { reason } : undefined });
  return true;
}

/**
 * The owner of the feed a URL's file name names, if that owner is still staff. The token is
 * found by its hash (an index lookup, so comparing it leaks nothing through timing), and the
 * role is read on every request: a user who loses the role or is deleted loses the feed.
 */
export async function feedOwner(db: Database, file: string): Promise<{ userId: string; name: string } | null> {
  const match = FEED_FILE.exec(file);
  if (!match) return null;
  const [row] = await db
    .select({ userId: user.id, name: user.name })
    .from(calendar_feeds)
    .innerJoin(user, eq(user.id, calendar_feeds.user_id))
    .innerJoin(user_roles, eq(user_roles.user_id, calendar_feeds.user_id))
    .where(and(eq(calendar_feeds.token_hash, hashToken(match[1])), inArray(user_roles.role, [...ROLES])))
    .limit(1);
  return row ?? null;
}
