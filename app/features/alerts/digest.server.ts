import { and, eq, gt, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { listing_alert_digests, listing_alerts, propertiesPublic } from "~/db/schema";
import { escapeHtml } from "~/features/mail/compose.server";
import { enqueueMail } from "~/features/mail/outbox.server";
import { LINK_TOKEN_PLACEHOLDER } from "~/features/mail/sealed-link.server";
import { cardColumns, filterConditions, LIST_ORDER, toCard } from "~/features/properties/public-queries.server";
import type { PropertyCardData } from "~/features/properties/types";
import { formatBRL } from "~/lib/format";
import { type AlertEnv, alertFilters, issueLinkToken } from "./alerts.server";
import { describeFilters } from "./describe";
import { ALERT_LIMITS } from "./messages";

/**
 * The daily digest of each confirmed alert (decision 025): the listings /imoveis would show for
 * its filters (the page's own filterConditions) that were published, or got cheaper, since the
 * last digest (or the confirmation). At most one a day per alert, whoever runs the job and how
 * often: the day's claim (a row keyed by alert and day, in Natal's calendar) is written in the
 * transaction that queues the mail, so a second run or process finds it and moves on; an alert
 * with nothing new queues nothing and claims nothing.
 */

export type DigestListing = PropertyCardData & { cheaper: boolean };
export type DigestRun = { alerts: number; queued: number };

class NothingNew extends Error {}

export async function runAlertDigests(db: Database, env: AlertEnv): Promise<DigestRun> {
  const alerts = await db
    .select({
      id: listing_alerts.id,
      email: listing_alerts.email,
      query: listing_alerts.query,
      since: sql<string>`coalesce(${listing_alerts.last_sent_at}, ${listing_alerts.confirmed_at})::text`,
    })
    .from(listing_alerts)
    .where(eq(listing_alerts.status, "confirmed"));
  let queued = 0;
  for (const alert of alerts) {
    try {
      const done = await db.transaction(async (tx) => {
        const claimed = await tx
          .insert(listing_alert_digests)
          .values({ alert_id: alert.id, day: sql`(now() at time zone 'America/Fortaleza')::date`, listings: 0 })
          .onConflictDoNothing()
          .returning({ day: listing_alert_digests.day });
        if (claimed.length === 0) return false;
        const listings = await digestListings(tx as unknown as Database, alert.query, alert.since);
        if (listings.length === 0) throw new NothingNew();
        const sealed = await issueLinkToken(tx, env, alert.email, alert.id);
        const mail = digestMail(env, describeFilters(alertFilters(alert.query)), listings);
        await enqueueMail(tx, { kind: "alert-digest", to: alert.email, ...mail, sealedLinkToken: sealed, listUnsubscribe: unsubscribeUrl(env) });
        await tx.update(listing_alert_digests).set({ listings: listings.length }).where(and(eq(listing_alert_digests.alert_id, alert.id), eq(listing_alert_digests.day, claimed[0].day)));
        await tx.update(listing_alerts).set({ last_sent_at: sql`now()` }).where(eq(listing_alerts.id, alert.id));
        return true;
      });
      if (done) queued++;
    } catch (error) {
      if (!(error instanceof NothingNew)) throw error;
    }
  }
  return { alerts: alerts.length, queued };
}

/** What the alert's search shows now that was published, or whose price dropped, after `since`. */
export async function digestListings(db: Database, query: string, since: string): Promise<DigestListing[]> {
  const filters = alertFilters(query);
  const after = sql`${since}::timestamptz`;
  const rows = await db
    .select({ ...cardColumns, cheaper: sql<boolean>`${propertiesPublic.created_at} <= ${after}` })
    .from(propertiesPublic)
    .where(
      and(
        filterConditions(filters),
        or(
          gt(propertiesPublic.created_at, after),
          sql`exists (select 1 from property_price_drops d where d.property_id = ${propertiesPublic.id} and d.at > ${after})`,
        ),
      ),
    )
    .orderBy(...LIST_ORDER)
    .limit(ALERT_LIMITS.listingsPerDigest);
  return rows.map(({ cheaper, ...row }) => ({ ...toCard(row), cheaper: Boolean(cheaper) }));
}

const base = (env: AlertEnv) => env.publicUrl.replace(/\/$/, "");
const manageUrl = (env: AlertEnv) => `${base(env)}/alertas/${LINK_TOKEN_PLACEHOLDER}`;
/** RFC 8058: the address the mail client POSTs `List-Unsubscribe=One-Click` to. */
const unsubscribeUrl = (env: AlertEnv) => manageUrl(env);

/** The digest: each listing with its photo, price and link; the alerts page (cancel) linked at the end. */
export function digestMail(env: AlertEnv, description: string, listings: DigestListing[]): { subject: string; text: string; html: string } {
  const subject = `${listings.length} imóve${listings.length === 1 ? "l" : "is"} para o seu alerta: ${description}`.replace(/[\r\n]+/g, " ").slice(0, 200);
  const line = (item: DigestListing) => `${item.cheaper ? "Baixou de preço: " : "Novo: "}${item.title} — ${formatBRL(item.price)}\n${base(env)}/imoveis/${item.id}`;
  const text = [
    `Imóveis novos ou com preço menor na sua busca (${description}):`,
    ...listings.map(line),
    `Ver ou cancelar seus alertas:\n${manageUrl(env)}`,
    "--\nVocê recebe este e-mail porque confirmou um alerta no nosso site. No máximo um por dia.",
  ].join("\n\n");
  const card = (item: DigestListing) => {
    const href = escapeHtml(`${base(env)}/imoveis/${item.id}`);
    const photo = item.cover ? `<img src="${escapeHtml(item.cover.startsWith("/") ? `${base(env)}${item.cover}` : item.cover)}" alt="" width="280" style="display:block;max-width:100%;border-radius:6px;">` : "";
    return `<div style="margin:0 0 24px;"><a href="${href}" style="color:#111827;text-decoration:none;">${photo}<p style="margin:8px 0 0;font-size:13px;color:${item.cheaper ? "#15803d" : "#1d4ed8"};font-weight:bold;">${item.cheaper ? "Baixou de preço" : "Novo"}</p><p style="margin:4px 0 0;font-size:16px;font-weight:bold;">${escapeHtml(item.title)}</p><p style="margin:4px 0 0;font-size:16px;">${escapeHtml(formatBRL(item.price))} · ${escapeHtml(item.neighborhood)}</p></a></div>`;
  };
  const html = `<!doctype html><html lang="pt-BR"><body style="margin:0;padding:24px;font-family:Arial,sans-serif;color:#111827;"><div style="max-width:560px;margin:0 auto;"><p style="font-size:16px;">Imóveis novos ou com preço menor na sua busca (${escapeHtml(description)}):</p>${listings.map(card).join("")}<p style="margin:32px 0 0;padding-top:16px;border-top:1px solid #e5e7eb;font-size:13px;color:#4b5563;">Você recebe este e-mail porque confirmou um alerta no nosso site (no máximo um por dia). <a href="${escapeHtml(manageUrl(env))}" style="color:#1d4ed8;">Ver ou cancelar seus alertas</a></p></div></body></html>`;
  return { subject, text, html };
}
