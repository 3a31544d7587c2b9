import { and, eq, lt, or, sql } from "drizzle-orm";
import { isDatabaseUnavailable } from "~/db/availability.server";
import type { Database } from "~/db/client.server";
import { leads, listing_alert_tokens, listing_alerts } from "~/db/schema";
import crypto from "node:crypto";
import { tokenHash } from "~/features/auth/tokens.server";
import { composeMail } from "~/features/mail/compose.server";
import { type DbOrTx, enqueueMail } from "~/features/mail/outbox.server";
import { LINK_TOKEN_PLACEHOLDER, sealLinkToken, type SecretSource } from "~/features/mail/sealed-link.server";
import { profileSchema } from "~/features/matching/profile-schema";
import { saveLeadProfile } from "~/features/matching/profiles.server";
import { FILTER_ALL, listSearchParams, type ListFilters, parseListFilters, PRICE_MAX, PRICE_MIN } from "~/features/properties/filters";
import { HONEYPOT_FIELD } from "~/features/leads/messages";
import { firstIssueMessage } from "~/lib/form-data";
import { isUuid } from "~/lib/ids";
import { errorFields, logger } from "~/lib/logger.server";
import { consume } from "~/lib/throttle.server";
import { describeFilters } from "./describe";
import { ALERT_LIMITS, ALERT_LINK_DAYS, ALERT_MESSAGES, ALERT_PENDING_DAYS } from "./messages";
import { alertSchema } from "./schema";

/**
 * 'Avise-me' (issue 23, item 3; decision 025): a visitor's alert on /imoveis, double opt-in, the
 * page of an address's alerts reached by the link of any of its e-mails, and the LGPD side.
 * Every link carries a fresh random token stored only as its sha256; the outbox holds it sealed
 * until the message is sent (decision 011), so a copy of the database opens no alert.
 */

const log = logger("alerts");

export type AlertEnv = SecretSource & { publicUrl: string };
export type Fields = Record<string, unknown>;

export type SubscribeResult = { ok: true; message: string; queued: boolean } | { ok: false; status: 400 | 429 | 500 | 503; message: string };

/** The query string an alert keeps: /imoveis's own parse and serialisation, without the page number. */
export function normaliseQuery(raw: string): string {
  return listSearchParams(parseListFilters(new URLSearchParams(raw)));
}

export const alertFilters = (query: string): ListFilters => parseListFilters(new URLSearchParams(query));

const manageUrl = (env: AlertEnv) => `${env.publicUrl.replace(/\/$/, "")}/alertas/${LINK_TOKEN_PLACEHOLDER}`;

/** A new link token for `email` (and its alert): the row holds its hash, the caller the sealed token for the outbox. */
export async function issueLinkToken(tx: DbOrTx, env: AlertEnv, email: string, alertId: string): Promise<string> {
  // Lower-case hex (256 bits): the site redirects paths to lower case, so the token must survive it.
  const token = crypto.randomBytes(32).toString("hex");
  await tx.insert(listing_alert_tokens).values({ token_hash: tokenHash(token), email, alert_id: alertId });
  return sealLinkToken(env, token);
}

async function enqueueConfirmation(tx: DbOrTx, env: AlertEnv, alert: { id: string; email: string; query: string }) {
  const sealed = await issueLinkToken(tx, env, alert.email, alert.id);
  const mail = composeMail({
    subject: "Confirme seu alerta de imóveis",
    greeting: "Olá!",
    paragraphs: [
      `Recebemos um pedido para avisar este e-mail quando surgirem imóveis assim: ${describeFilters(alertFilters(alert.query))}.`,
      "Para ativar o alerta, abra o link abaixo e confirme. Sem a confirmação, o pedido é apagado em 7 dias.",
    ],
    action: { label: "Confirmar alerta", url: manageUrl(env) },
  });
  await enqueueMail(tx, { kind: "alert-confirm", to: alert.email, ...mail, sealedLinkToken: sealed });
}

/**
 * The form's post: honeypot, schema, a limit per address and one per e-mail. The same search for
 * the same e-mail is one alert: a pending one gets a new confirmation, a confirmed one nothing
 * (and the same answer, so the form tells no one whether an address is subscribed).
 */
export async function subscribeAlert(db: Database, env: AlertEnv, ip: string, fields: Fields): Promise<SubscribeResult> {
  if (fields[HONEYPOT_FIELD]) return { ok: true, message: ALERT_MESSAGES.subscribed, queued: false };
  const parsed = alertSchema.safeParse(fields);
  if (!parsed.success) return { ok: false, status: 400, message: firstIssueMessage(parsed.error) };
  const { email, phone } = parsed.data;
  const query = normaliseQuery(parsed.data.q);
  if (query.length > ALERT_LIMITS.queryLength) return { ok: false, status: 400, message: ALERT_MESSAGES.query };
  try {
    const { allowed } = await consume(db, `alerts:address:${ip}`, { max: ALERT_LIMITS.perHour, windowSeconds: 3600 });
    if (!allowed) return { ok: false, status: 429, message: ALERT_MESSAGES.tooMany };
    return await db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: listing_alerts.id, status: listing_alerts.status })
        .from(listing_alerts)
        .where(and(sql`lower(${listing_alerts.email}) = ${email.toLowerCase()}`, eq(listing_alerts.query, query)));
      if (existing?.status === "confirmed") return { ok: true, message: ALERT_MESSAGES.subscribed, queued: false } as const;
      let id = existing?.id;
      if (!id) {
        const [{ total }] = await tx
          .select({ total: sql<number>`count(*)::int` })
          .from(listing_alerts)
          .where(sql`lower(${listing_alerts.email}) = ${email.toLowerCase()}`);
        if (Number(total) >= ALERT_LIMITS.perEmail) return { ok: false, status: 400, message: ALERT_MESSAGES.perEmail } as const;
        [{ id }] = await tx.insert(listing_alerts).values({ email, phone: phone ?? null, query }).returning({ id: listing_alerts.id });
      }
      await enqueueConfirmation(tx, env, { id, email, query });
      return { ok: true, message: ALERT_MESSAGES.subscribed, queued: true } as const;
    });
  } catch (error) {
    log.error({ ...errorFields(error) }, "an alert could not be saved");
    return { ok: false, status: isDatabaseUnavailable(error) ? 503 : 500, message: ALERT_MESSAGES.failure };
  }
}

export type ManagedAlert = { id: string; description: string; href: string; status: "pending" | "confirmed"; own: boolean };
export type ManagePage = { email: string; alerts: ManagedAlert[]; ownStatus: "pending" | "confirmed" | null };

type TokenRow = { email: string; alert_id: string | null };

/** The token's row, while it is younger than ALERT_LINK_DAYS; null for anything else (malformed, unknown, old). */
async function findToken(db: DbOrTx, token: string): Promise<TokenRow | null> {
  if (!/^[0-9a-f]{64}$/.test(token)) return null;
  const [row] = await db
    .select({ email: listing_alert_tokens.email, alert_id: listing_alert_tokens.alert_id })
    .from(listing_alert_tokens)
    .where(and(eq(listing_alert_tokens.token_hash, tokenHash(token)), sql`${listing_alert_tokens.created_at} > now() - make_interval(days => ${ALERT_LINK_DAYS})`));
  return row ?? null;
}

/** Hides most of an address on the page ("jo***@gmail.com"): the link may be forwarded. */
export function maskEmail(email: string): string {
  const [local, domain] = email.split("@");
  return `${local.slice(0, 2)}***@${domain ?? ""}`;
}

/** The alerts page of a link: every alert of the link's e-mail address, the link's own first. */
export async function loadManagePage(db: Database, token: string): Promise<ManagePage | null> {
  const found = await findToken(db, token);
  if (!found) return null;
  const rows = await db
    .select({ id: listing_alerts.id, query: listing_alerts.query, status: listing_alerts.status })
    .from(listing_alerts)
    .where(sql`lower(${listing_alerts.email}) = ${found.email.toLowerCase()}`)
    .orderBy(listing_alerts.created_at);
  const alerts = rows.map((row) => ({
    id: row.id,
    description: describeFilters(alertFilters(row.query)),
    href: `/imoveis${row.query ? `?${row.query}` : ""}`,
    status: row.status,
    own: row.id === found.alert_id,
  }));
  alerts.sort((a, b) => Number(b.own) - Number(a.own));
  return { email: maskEmail(found.email), alerts, ownStatus: alerts.find((alert) => alert.own)?.status ?? null };
}

/** `none`: the address has no alert left (its links are gone too): the page itself is gone. */
export type ManageResult = { ok: true; message: string; none?: boolean } | { ok: false; status: 400 | 404; message: string };

/**
 * The page's buttons (and the one-click unsubscribe of RFC 8058, a POST with
 * `List-Unsubscribe=One-Click`): confirm the link's own alert, or cancel one of the address's
 * alerts (deleted, with its links and claims). A GET never changes anything: link scanners open links.
 */
export async function manageAlert(db: Database, token: string, fields: Fields): Promise<ManageResult> {
  const found = await findToken(db, token);
  if (!found) return { ok: false, status: 404, message: ALERT_MESSAGES.notFound };
  if (fields["List-Unsubscribe"] === "One-Click") {
    if (found.alert_id) await deleteAlert(db, found.email, found.alert_id);
    return { ok: true, message: ALERT_MESSAGES.cancelled, none: await forgetIfNone(db, found.email) };
  }
  const intent = fields.intent;
  if (intent === "confirm" && found.alert_id) {
    await confirmAlert(db, found.alert_id);
    return { ok: true, message: ALERT_MESSAGES.confirmed };
  }
  if (intent === "cancel" && isUuid(fields.alert)) {
    const deleted = await deleteAlert(db, found.email, fields.alert as string);
    if (!deleted) return { ok: false, status: 404, message: ALERT_MESSAGES.notFound };
    return { ok: true, message: ALERT_MESSAGES.cancelled, none: await forgetIfNone(db, found.email) };
  }
  return { ok: false, status: 400, message: ALERT_MESSAGES.badAction };
}

/** With no alert left, the address's links go too: nothing of the address stays. True then. */
async function forgetIfNone(db: Database, email: string): Promise<boolean> {
  const [left] = await db.select({ id: listing_alerts.id }).from(listing_alerts).where(sql`lower(${listing_alerts.email}) = ${email.toLowerCase()}`).limit(1);
  if (left) return false;
  await db.delete(listing_alert_tokens).where(sql`lower(${listing_alert_tokens.email}) = ${email.toLowerCase()}`);
  return true;
}

async function deleteAlert(db: Database, email: string, alertId: string): Promise<boolean> {
  const rows = await db
    .delete(listing_alerts)
    .where(and(eq(listing_alerts.id, alertId), sql`lower(${listing_alerts.email}) = ${email.toLowerCase()}`))
    .returning({ id: listing_alerts.id });
  return rows.length > 0;
}

/** The lead's name: the address's local part, within the leads' 2–100 characters. */
const leadName = (email: string) => `Alerta do site: ${email}`.slice(0, 100);

/**
 * Marks the alert confirmed (once) and makes its lead: origin 'site', with a search profile built
 * from the filters (the matching module's own saving), so the broker sees the demand. A lead needs
 * a phone (leads.phone, spec §4): an alert without a WhatsApp number makes none.
 */
export async function confirmAlert(db: Database, alertId: string): Promise<void> {
  const made = await db.transaction(async (tx) => {
    const [alert] = await tx
      .update(listing_alerts)
      .set({ status: "confirmed", confirmed_at: sql`now()` })
      .where(and(eq(listing_alerts.id, alertId), eq(listing_alerts.status, "pending")))
      .returning();
    if (!alert || !alert.phone) return null;
    const filters = alertFilters(alert.query);
    const [lead] = await tx
      .insert(leads)
      .values({
        full_name: leadName(alert.email),
        phone: alert.phone,
        email: alert.email,
        interest_type: filters.finalidade === "aluguel" ? "alugar" : "comprar",
        property_type: filters.tipo === FILTER_ALL ? null : filters.tipo,
        origin: "site",
        status: "novo",
        notes: `Alerta 'Avise-me' confirmado: ${describeFilters(filters)}`.slice(0, 1000),
      })
      .returning({ id: leads.id });
    await tx.update(listing_alerts).set({ lead_id: lead.id }).where(eq(listing_alerts.id, alertId));
    return { leadId: lead.id, filters };
  });
  if (!made) return;
  const profile = profileSchema.safeParse(profileFromFilters(made.filters));
  if (profile.success) await saveLeadProfile(db, null, made.leadId, null, profile.data);
}

/** The lead profile a search stands for (a profile needs a purpose: a search for any purpose gives none). */
export function profileFromFilters(filters: ListFilters): Record<string, unknown> | null {
  if (filters.finalidade === FILTER_ALL) return null;
  return {
    purpose: filters.finalidade,
    types: filters.tipo === FILTER_ALL ? [] : [filters.tipo],
    neighborhoods: filters.bairro ? [filters.bairro] : [],
    price_min: filters.precoMin > PRICE_MIN ? String(filters.precoMin) : "",
    price_max: filters.precoMax < PRICE_MAX ? String(filters.precoMax) : "",
    min_bedrooms: filters.quartos === FILTER_ALL ? "" : filters.quartos.replace("+", ""),
    min_suites: filters.suites === FILTER_ALL ? "" : filters.suites,
    min_parking: filters.vagas === FILTER_ALL ? "" : filters.vagas,
    min_area: filters.areaMin === null ? "" : String(filters.areaMin),
    features: filters.carac,
    accepts_financing: filters.financiamento,
  };
}

/** Housekeeping: pending alerts older than ALERT_PENDING_DAYS, and links older than ALERT_LINK_DAYS. */
export async function pruneAlerts(db: Database): Promise<{ expired: number }> {
  const expired = await db
    .delete(listing_alerts)
    .where(and(eq(listing_alerts.status, "pending"), lt(listing_alerts.created_at, sql`now() - make_interval(days => ${ALERT_PENDING_DAYS})`)))
    .returning({ id: listing_alerts.id });
  await db
    .delete(listing_alert_tokens)
    .where(
      or(
        lt(listing_alert_tokens.created_at, sql`now() - make_interval(days => ${ALERT_LINK_DAYS})`),
        sql`not exists (select 1 from listing_alerts a where lower(a.email) = lower(${listing_alert_tokens.email}))`,
      ),
    );
  return { expired: expired.length };
}
