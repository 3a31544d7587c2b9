import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, propertiesPublic } from "~/db/schema";
import { consume } from "~/lib/throttle.server";
import { firstIssueMessage, formDataToObject } from "~/lib/form-data";
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

type Deps = { db: Database; ip: string; limitPerHour: number };

async function withinLimit(deps: Deps): Promise<boolean> {
  const { allowed } = await consume(deps.db, `leads:address:${deps.ip}`, { max: deps.limitPerHour, windowSeconds: 3600 });
  return allowed;
}

export async function createVisitBooking(deps: Deps, formData: FormData): Promise<SiteLeadResult> {
  const values = formDataToObject(formData);
  // A filled honeypot: answer like a success so the bot learns nothing, store nothing.
  if (values[HONEYPOT_FIELD]) return { ok: true, leadId: null };
  const parsed = visitBookingSchema.safeParse(values);
  if (!parsed.success) return { ok: false, status: 400, message: firstIssueMessage(parsed.error) };
  if (!(await withinLimit(deps))) return { ok: false, status: 429, message: LEAD_MESSAGES.tooMany };
  try {
    // Only a property visitors can see may be referenced.
    let propertyId: string | null = null;
    if (parsed.data.property_id) {
      const [found] = await deps.db
        .select({ id: propertiesPublic.id })
        .from(propertiesPublic)
        .where(eq(propertiesPublic.id, parsed.data.property_id));
      propertyId = found?.id ?? null;
    }
    const [row] = await deps.db
      .insert(leads)
      .values({
        full_name: parsed.data.full_name,
        phone: parsed.data.phone,
        email: parsed.data.email ?? null,
        notes: parsed.data.notes ?? null,
        property_id: propertyId,
        interest_type: "comprar",
        origin: "site",
        status: "novo",
      })
      .returning({ id: leads.id });
    return { ok: true, leadId: row.id };
  } catch (error) {
    console.error("[leads] visit booking could not be saved:", error);
    return { ok: false, status: 500, message: LEAD_MESSAGES.bookingFailure };
  }
}

export async function createContactLead(deps: Deps, formData: FormData): Promise<SiteLeadResult> {
  const values = formDataToObject(formData);
  if (values[HONEYPOT_FIELD]) return { ok: true, leadId: null };
  const parsed = contactSchema.safeParse(values);
  if (!parsed.success) return { ok: false, status: 400, message: firstIssueMessage(parsed.error) };
  if (!(await withinLimit(deps))) return { ok: false, status: 429, message: LEAD_MESSAGES.tooMany };
  try {
    const [row] = await deps.db
      .insert(leads)
      .values({
        full_name: parsed.data.name,
        phone: parsed.data.phone,
        email: parsed.data.email,
        notes: parsed.data.message,
        interest_type: "comprar",
        origin: "site",
        status: "novo",
      })
      .returning({ id: leads.id });
    return { ok: true, leadId: row.id };
  } catch (error) {
    console.error("[leads] contact message could not be saved:", error);
    return { ok: false, status: 500, message: LEAD_MESSAGES.contactFailure };
  }
}
