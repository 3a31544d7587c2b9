import { isUtf8 } from "node:buffer";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, properties } from "~/db/schema";
import { enqueueLeadAlert } from "~/features/mail/lead-alert.server";
import { loadNotificationEmails } from "~/features/settings/settings.server";
import { errorFields, logger } from "~/lib/logger.server";
import { loadPortalKeys, sameSecret } from "./portal-keys.server";
import { cut, DEFAULT_PORTAL_NAME, interestOf, MAX_NOTES, PORTAL_LEAD_MESSAGES, portalLeadSchema, portalPhone } from "./portal-lead-input";

/**
 * The portals' lead webhook (issue 13): POST /api/portais/leads, one lead per request, as the
 * Grupo OLX (ZAP Imóveis, VivaReal, OLX) "Integração de Leads" sends it. What we follow, from
 * the portals' own manual and samples:
 * - https://github.com/olxbr/crm-lead-integration (README, formerly grupozap/crm-lead-integration;
 *   also https://developers.grupozap.com/leads/integration/): a JSON body with leadOrigin,
 *   timestamp, originLeadId, originListingId, clientListingId, name, email, ddd, phone,
 *   phoneNumber (deprecated: ddd + phone) and message; HTTP Basic authentication; any 2xx means
 *   "received", anything else is retried 5 times 10 minutes apart (then kept 14 days), and the
 *   answer's body is ignored; 5-second timeout. Its samples (samples/go/src/auth/auth.go) check
 *   the user "vivareal" and a SECRET_KEY.
 * - The newer contract adds temperature (e.g. "Alta") and transactionType ("SELL" / "RENT"),
 *   with leadOrigin values such as "VivaReal", "Zap", "GrupoZap" or "Grupo OLX"
 *   (developers.grupozap.com/webhooks/integration_leads.html, as quoted by integrators).
 *
 * Our choices, where the manual leaves room:
 * - Required: originLeadId, name (2–100 characters, no control characters) and a phone (ddd +
 *   phone, else phoneNumber), stored as "(84) 99999-1234" like the site's leads: the leads table
 *   requires a phone and the broker answers by phone/WhatsApp. No phone → 400 "Telefone
 *   obrigatório" (the portal's own forms require one). An e-mail is optional, but an invalid one
 *   is refused (400) like everywhere else.
 * - leadOrigin is the portal's name (up to 60 characters; absent → "Grupo OLX"); temperature is
 *   kept as sent (up to 30); transactionType SELL → interest 'comprar', RENT → 'alugar', anything
 *   else → from the linked listing's purpose, else 'comprar'.
 * - clientListingId is our listing's código (the feed's ListingID): matched ignoring case; absent
 *   or unknown → the lead is stored without a listing (the manual asks for a 4xx when it is
 *   missing, but a lead without a listing is still a person to call back).
 * - message → notes, cut at 1000 characters. originListingId and timestamp are not kept: the
 *   listing is ours by código, and the lead is dated when it arrives (what alerts, the 'Novo
 *   lead' toast and the reports count by).
 * - One originLeadId per portal is one lead: a retry, or the same post racing itself, stores
 *   nothing more, alerts nobody again, and is answered 200 like the first.
 * - Unknown fields are ignored. Every refusal is a JSON { error } in Portuguese, never a 500 for
 *   bad input. No per-address limit (the portals send many leads from a few addresses); the
 *   server's 64 KB body limit still applies.
 */

export const PORTAL_WEBHOOK_USER = "vivareal";
export const PORTAL_WEBHOOK_REALM = "portais";
export const PORTAL_WEBHOOK_MAX_BYTES = 64 * 1024;
/** user and password of an "Authorization: Basic …" header, or null. */
export function basicCredentials(header: string | null): { user: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? "");
  if (!match) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export type PortalLeadAnswer = {
  status: number;
  body: { ok: true; leadId: string } | { ok: false; error: string; field?: string };
  headers?: Record<string, string>;
  /** A new lead was stored (and its alert enqueued): wake the mail worker. */
  created: boolean;
};

const refuse = (status: number, error: string, extra: Partial<PortalLeadAnswer> & { field?: string } = {}): PortalLeadAnswer => ({
  status,
  body: { ok: false, error, ...(extra.field ? { field: extra.field } : {}) },
  headers: extra.headers,
  created: false,
});

const log = logger("portals");

/**
 * Reads the body as text within the limit, whatever Content-Type says: null when too large,
 * NOT_UTF8 when its bytes are no UTF-8 text (read leniently, "José" in Latin-1 would be
 * stored as "Jos\uFFFD"), undefined when it cannot be read at all.
 */
const NOT_UTF8 = Symbol("not UTF-8");
async function readLimited(request: Request): Promise<string | null | typeof NOT_UTF8 | undefined> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > PORTAL_WEBHOOK_MAX_BYTES) return null;
  try {
    const bytes = await request.arrayBuffer();
    if (bytes.byteLength > PORTAL_WEBHOOK_MAX_BYTES) return null;
    // As request.text() reads it (a byte order mark dropped), but refusing what is not UTF-8.
    return isUtf8(bytes) ? new TextDecoder().decode(bytes) : NOT_UTF8;
  } catch {
    return undefined;
  }
}

export async function receivePortalLead(deps: { db: Database; publicUrl: string }, request: Request): Promise<PortalLeadAnswer> {
  if (request.method !== "POST") return refuse(405, PORTAL_LEAD_MESSAGES.method, { headers: { Allow: "POST" } });

  // Who is asking comes first: nothing of the body is read for a caller without the secret.
  const credentials = basicCredentials(request.headers.get("authorization"));
  const { webhookSecret } = await loadPortalKeys(deps.db);
  const userOk = credentials?.user === PORTAL_WEBHOOK_USER;
  const passwordOk = sameSecret(credentials?.password ?? "", webhookSecret);
  if (!credentials || !userOk || !passwordOk) {
    log.warn({ reason: credentials ? "wrong credentials" : "no credentials" }, "portal lead refused");
    return refuse(401, PORTAL_LEAD_MESSAGES.unauthorized, { headers: { "WWW-Authenticate": `Basic realm="${PORTAL_WEBHOOK_REALM}", charset="UTF-8"` } });
  }

  const text = await readLimited(request);
  if (text === null) return refuse(413, PORTAL_LEAD_MESSAGES.tooLarge);
  if (text === NOT_UTF8) return refuse(400, PORTAL_LEAD_MESSAGES.notUtf8);
  let json: unknown;
  try {
    json = text === undefined ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) return refuse(400, PORTAL_LEAD_MESSAGES.notJson);

  const parsed = portalLeadSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? String(issue.path[0]) : undefined;
    log.info({ field }, "portal lead refused: invalid field");
    return refuse(400, issue?.message ?? PORTAL_LEAD_MESSAGES.notJson, { field });
  }
  const input = parsed.data;
  const phone = portalPhone(input);
  if (phone === null) return refuse(400, PORTAL_LEAD_MESSAGES.phoneRequired, { field: "phone" });
  if (phone === "invalid") return refuse(400, PORTAL_LEAD_MESSAGES.phoneInvalid, { field: "phone" });

  const portalName = input.leadOrigin ?? DEFAULT_PORTAL_NAME;
  try {
    // Read before the transaction: the embedded database has one connection.
    const [property] = input.clientListingId
      ? await deps.db
          .select({ id: properties.id, codigo: properties.codigo, title: properties.title, purpose: properties.purpose })
          .from(properties)
          .where(eq(properties.codigo, input.clientListingId.toUpperCase()))
      : [];
    const addresses = await loadNotificationEmails(deps.db);
    const interest = interestOf(input.transactionType, property?.purpose);
    const notes = cut(input.message, MAX_NOTES);

    const outcome = await deps.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(leads)
        .values({
          full_name: input.name,
          phone,
          email: input.email ?? null,
          interest_type: interest,
          origin: "portal",
          status: "novo",
          notes,
          property_id: property?.id ?? null,
          portal_name: portalName,
          portal_lead_id: input.originLeadId,
          portal_temperature: input.temperature ?? null,
        })
        // The portals retry (and may race themselves): one lead per portal and lead id.
        .onConflictDoNothing({ target: [leads.portal_name, leads.portal_lead_id], where: sql`portal_lead_id is not null` })
        .returning({ id: leads.id });
      if (!created) {
        const [existing] = await tx
          .select({ id: leads.id })
          .from(leads)
          .where(and(eq(leads.portal_name, portalName), eq(leads.portal_lead_id, input.originLeadId)));
        return { leadId: existing?.id ?? null, created: false };
      }
      // The same alert as a site lead, in the same transaction: stored and alerted, or neither.
      await enqueueLeadAlert(tx, { publicUrl: deps.publicUrl }, addresses, {
        leadId: created.id,
        fullName: input.name,
        phone,
        email: input.email ?? null,
        interest,
        message: notes,
        source: "portal",
        property: property ? { id: property.id, codigo: property.codigo, title: property.title } : null,
        portal: { name: portalName, temperature: input.temperature ?? null },
      });
      return { leadId: created.id, created: true };
    });
    if (!outcome.leadId) throw new Error("portal lead neither inserted nor found");
    log.info({ leadId: outcome.leadId, portal: portalName, repeated: !outcome.created, linked: Boolean(property) }, "portal lead received");
    return { status: 200, body: { ok: true, leadId: outcome.leadId }, created: outcome.created };
  } catch (error) {
    // Never the lead itself in the log. 503: the portal tries again later.
    log.error({ ...errorFields(error) }, "a portal lead could not be saved");
    return refuse(503, PORTAL_LEAD_MESSAGES.failure, { headers: { "Retry-After": "60" } });
  }
}
