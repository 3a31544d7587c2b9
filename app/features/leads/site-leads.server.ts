import { eq } from "drizzle-orm";
import { data } from "react-router";
import { isDatabaseUnavailable } from "~/db/availability.server";
import type { Database } from "~/db/client.server";
import { leads, properties, propertiesPublic } from "~/db/schema";
import { enqueueLeadAlert, type LeadAlertInput } from "~/features/mail/lead-alert.server";
import { loadNotificationEmails } from "~/features/settings/settings.server";
import { firstIssueMessage } from "~/lib/form-data";
import { errorFields, logger } from "~/lib/logger.server";
import { consume } from "~/lib/throttle.server";
import { DATABASE_RETRY_AFTER_SECONDS } from "~/lib/unavailable";
import { HONEYPOT_FIELD, LEAD_MESSAGES } from "./messages";
import { contactSchema, visitBookingSchema } from "./schema";
import { preferenceLabel, preferencesOf } from "./visit-preferences";

const PREFERENCE_FIELD_NAMES = ["pref_day_1", "pref_period_1", "pref_day_2", "pref_period_2", "pref_day_3", "pref_period_3"] as const;

/**
 * Leads from the public site (visit bookings and contact messages). Whatever the browser sent,
 * a site lead is stored as status novo, origin site, interest comprar (spec §4); the server
 * validates again with the same schema and limits submissions per address.
 */

export type SiteLeadResult =
  | { ok: true; leadId: string | null }
  | { ok: false; status: 400 | 429 | 500 | 503; message: string };

type Deps = {
  db: Database;
  ip: string;
  limitPerHour: number;
  /** PUBLIC_URL, for the links in the new-lead alert. */
  publicUrl: string;
};

/** The posted fields (lib/request-body.server.ts readForm): text, or lists for repeated keys. */
type Fields = Record<string, unknown>;

const log = logger("leads");

async function withinLimit(deps: Deps): Promise<boolean> {
  const { allowed } = await consume(deps.db, `leads:address:${deps.ip}`, { max: deps.limitPerHour, windowSeconds: 3600 });
  return allowed;
}

type LeadRow = Pick<typeof leads.$inferInsert, "full_name" | "phone" | "email" | "notes" | "property_id" | "visit_preferences">;

/**
 * What both site forms share: the honeypot, the schema, the per-address limit, and the fixed
 * status/origin/interest of a site lead. `toRow` turns the validated form into the lead.
 */
async function createSiteLead<T>(
  deps: Deps,
  values: Fields,
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly { message: string }[] } } },
  toRow: (data: T) => Promise<LeadRow>,
  failureMessage: string,
  source: LeadAlertInput["source"],
): Promise<SiteLeadResult> {
  // A filled honeypot: answer like a success so the bot learns nothing, store nothing.
  if (values[HONEYPOT_FIELD]) return { ok: true, leadId: null };
  const parsed = schema.safeParse(values);
  if (!parsed.success) return { ok: false, status: 400, message: firstIssueMessage(parsed.error) };
  // Everything from here needs the database, the limit's counter included: when it cannot
  // answer, the visitor gets the form's own message (503), not the error page (issue 21).
  try {
    if (!(await withinLimit(deps))) return { ok: false, status: 429, message: LEAD_MESSAGES.tooMany };
    const row = await toRow(parsed.data);
    const addresses = await loadNotificationEmails(deps.db);
    // The alert is enqueued with the lead: both are stored, or neither (the caller wakes the
    // mail worker after this commit).
    const leadId = await deps.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(leads)
        .values({ ...row, interest_type: "comprar", origin: "site", status: "novo" })
        .returning({ id: leads.id });
      const [property] = row.property_id
        ? await tx.select({ id: properties.id, codigo: properties.codigo, title: properties.title }).from(properties).where(eq(properties.id, row.property_id))
        : [];
      await enqueueLeadAlert(tx, { publicUrl: deps.publicUrl }, addresses, {
        leadId: created.id,
        fullName: row.full_name,
        phone: row.phone,
        email: row.email ?? null,
        interest: "comprar",
        message: row.notes ?? null,
        source,
        property: property ?? null,
        preferences: (row.visit_preferences ?? []).map(preferenceLabel),
      });
      return created.id;
    });
    return { ok: true, leadId };
  } catch (error) {
    // Never the lead itself: errorFields keeps the error's kind and code, not the query's values.
    log.error({ ...errorFields(error) }, "a site lead could not be saved");
    return { ok: false, status: isDatabaseUnavailable(error) ? 503 : 500, message: failureMessage };
  }
}

/**
 * Text as it may go back into a form: without control characters (line breaks and tabs stay) or
 * unpaired surrogates, which the form refuses anyway and HTML cannot hold, and no longer than
 * any field of these forms could legitimately be.
 */
function typedText(value: string): string {
  return value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "").slice(0, 2000);
}

/** The fields each form gives back after a failure. */
export const CONTACT_FIELDS = ["name", "phone", "email", "message"] as const;
export const BOOKING_FIELDS = ["full_name", "phone", "email", "notes", "property_id", ...PREFERENCE_FIELD_NAMES] as const;

/**
 * A refused or failed lead as the action answers it: the form's message, and what the visitor
 * typed, so that the page rendered again after a post without JavaScript shows the form as it was
 * (with JavaScript the form keeps its fields anyway). A database that cannot answer is a 503 with
 * Retry-After, like the rest of the site.
 */
export function leadFailure(result: Extract<SiteLeadResult, { ok: false }>, fields: Fields, names: readonly string[]) {
  const values = Object.fromEntries(names.flatMap((name) => (typeof fields[name] === "string" ? [[name, typedText(fields[name] as string)]] : [])));
  return data(
    { ok: false as const, message: result.message, values: values as Record<string, string> },
    { status: result.status, headers: result.status === 503 ? { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) } : undefined },
  );
}

export function createVisitBooking(deps: Deps, values: Fields): Promise<SiteLeadResult> {
  return createSiteLead(
    deps,
    values,
    visitBookingSchema,
    async (data) => {
      // Only a property visitors can see may be referenced.
      let propertyId: string | null = null;
      if (data.property_id) {
        const [found] = await deps.db.select({ id: propertiesPublic.id }).from(propertiesPublic).where(eq(propertiesPublic.id, data.property_id));
        propertyId = found?.id ?? null;
      }
      return {
        full_name: data.full_name,
        phone: data.phone,
        email: data.email ?? null,
        notes: data.notes ?? null,
        property_id: propertyId,
        visit_preferences: preferencesOf(data),
      };
    },
    LEAD_MESSAGES.bookingFailure,
    "visita",
  );
}

export function createContactLead(deps: Deps, values: Fields): Promise<SiteLeadResult> {
  return createSiteLead(
    deps,
    values,
    contactSchema,
    async (data) => ({ full_name: data.name, phone: data.phone, email: data.email, notes: data.message, property_id: null, visit_preferences: null }),
    LEAD_MESSAGES.contactFailure,
    "contato",
  );
}
