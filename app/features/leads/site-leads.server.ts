import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, properties, propertiesPublic } from "~/db/schema";
import { enqueueLeadAlert, type LeadAlertInput } from "~/features/mail/lead-alert.server";
import { loadNotificationEmails } from "~/features/settings/settings.server";
import { firstIssueMessage } from "~/lib/form-data";
import { errorFields, logger } from "~/lib/logger.server";
import { consume } from "~/lib/throttle.server";
import { HONEYPOT_FIELD, LEAD_MESSAGES } from "./messages";
import { contactSchema, visitBookingSchema } from "./schema";

/**
 * Leads from the public site (visit bookings and contact messages). Whatever the browser sent,
 * a site lead is stored as status novo, origin site, interest comprar (spec §4); the server
 * validates again with the same schema and limits submissions per address.
 */

export type SiteLeadResult =
  | { ok: true; leadId: string | null }
  | { ok: false; status: 400 | 429 | 500; message: string };

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

type LeadRow = Pick<typeof leads.$inferInsert, "full_name" | "phone" | "email" | "notes" | "property_id">;

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
  if (!(await withinLimit(deps))) return { ok: false, status: 429, message: LEAD_MESSAGES.tooMany };
  try {
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
      });
      return created.id;
    });
    return { ok: true, leadId };
  } catch (error) {
    // Never the lead itself: errorFields keeps the error's kind and code, not the query's values.
    log.error({ ...errorFields(error) }, "a site lead could not be saved");
    return { ok: false, status: 500, message: failureMessage };
  }
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
      return { full_name: data.full_name, phone: data.phone, email: data.email ?? null, notes: data.notes ?? null, property_id: propertyId };
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
    async (data) => ({ full_name: data.name, phone: data.phone, email: data.email, notes: data.message, property_id: null }),
    LEAD_MESSAGES.contactFailure,
    "contato",
  );
}
