import { and, desc, eq, isNotNull, ne, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { lead_events, leads, properties } from "~/db/schema";
import type { LeadStatus } from "~/db/values";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { mediaUrlForWidth, showableImages } from "~/features/media/urls";
import { loadWhatsappTemplates } from "~/features/settings/settings.server";
import type { WhatsappTemplate } from "~/features/settings/templates";
import { loadBrokerProfile } from "~/features/settings/settings.server";
import { isUuid } from "~/lib/ids";
import { propertyPath } from "./contact-links";
import { type CrmLead, crmLeadFields } from "./crm.server";
import { setActor } from "./timeline-actor.server";
import { loadLeadTimeline, type TimelineItem } from "./timeline.server";

/**
 * The lead page (/crm/leads/:id): the lead, its property, its timeline, the leads that look like
 * the same person, and what the WhatsApp buttons need. Writes (note, next contact) record a
 * timeline row and an audit row in one transaction; audit rows name fields, never values.
 */

export type LeadPageProperty = {
  id: string;
  codigo: string;
  title: string;
  price: number;
  purpose: "venda" | "aluguel";
  neighborhood: string;
  /** A 400 px cover, or null when the listing has no photo. */
  cover: string | null;
  /** Absolute public URL (for the WhatsApp templates). */
  publicUrl: string;
};

export type SamePersonLead = {
  id: string;
  full_name: string;
  status: LeadStatus;
  created_at: string;
  /** What matched: the phone's digits, the e-mail, or both. */
  matches: ("phone" | "email")[];
};

export type LeadPageData = {
  lead: CrmLead & { next_contact_at: string | null };
  property: LeadPageProperty | null;
  timeline: TimelineItem[];
  samePerson: SamePersonLead[];
  templates: WhatsappTemplate[];
  brokerName: string;
};

const phoneDigits = (phone: string) => phone.replace(/\D/g, "");

/**
 * Other leads with the same phone digits or the same e-mail (any case). Written with the exact
 * expressions of leads_phone_digits_idx and leads_email_lower_idx (migration 0005), so both are
 * used (a BitmapOr) instead of reading every lead.
 */
export function samePersonQuery(db: Database, lead: { id: string; phone: string; email: string | null }) {
  const digits = phoneDigits(lead.phone);
  const email = lead.email?.trim().toLowerCase() || null;
  const byPhone = digits ? sql`regexp_replace(${leads.phone}, '\\D', '', 'g') = ${digits}` : undefined;
  const byEmail = email ? and(isNotNull(leads.email), sql`lower(${leads.email}) = ${email}`) : undefined;
  return db
    .select({ id: leads.id, full_name: leads.full_name, status: leads.status, created_at: leads.created_at, phone: leads.phone, email: leads.email })
    .from(leads)
    .where(and(ne(leads.id, lead.id), or(byPhone ?? sql`false`, byEmail ?? sql`false`)))
    .orderBy(desc(leads.created_at), desc(leads.id))
    .limit(20);
}

export async function findSamePerson(db: Database, lead: { id: string; phone: string; email: string | null }): Promise<SamePersonLead[]> {
  const digits = phoneDigits(lead.phone);
  const email = lead.email?.trim().toLowerCase() || null;
  if (!digits && !email) return [];
  const rows = await samePersonQuery(db, lead);
  return rows.map((row) => ({
    id: row.id,
    full_name: row.full_name,
    status: row.status,
    created_at: new Date(row.created_at).toISOString(),
    matches: [
      ...(digits && phoneDigits(row.phone) === digits ? (["phone"] as const) : []),
      ...(email && row.email?.toLowerCase() === email ? (["email"] as const) : []),
    ],
  }));
}

export async function loadLeadPage(db: Database, env: { publicUrl: string }, id: string): Promise<LeadPageData | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ lead: leads, property: properties })
    .from(leads)
    .leftJoin(properties, eq(properties.id, leads.property_id))
    .where(eq(leads.id, id));
  if (!row) return null;
  const { lead, property } = row;
  const [timeline, samePerson, templates] = await Promise.all([
    loadLeadTimeline(db, id),
    findSamePerson(db, lead),
    loadWhatsappTemplates(db),
  ]);
  const cover = property ? showableImages(property.images)[0] : undefined;
  return {
    lead: {
      ...crmLeadFields(lead),
      next_contact_at: lead.next_contact_at ? new Date(lead.next_contact_at).toISOString() : null,
      property: property ? { id: property.id, codigo: property.codigo, title: property.title } : null,
    },
    property: property
      ? {
          id: property.id,
          codigo: property.codigo,
          title: property.title,
          price: property.price,
          purpose: property.purpose,
          neighborhood: property.neighborhood,
          cover: cover ? mediaUrlForWidth(cover, 400) : null,
          publicUrl: `${env.publicUrl}${propertyPath(property.id)}`,
        }
      : null,
    timeline,
    samePerson,
    templates,
    brokerName: (await loadBrokerProfile(db)).name,
  };
}

/** A staff note in the timeline. False when the lead does not exist. */
export async function addLeadNote(db: Database, actor: AuditActor, id: string, body: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    const [found] = await tx.select({ id: leads.id }).from(leads).where(eq(leads.id, id)).for("update");
    if (!found) return false;
    await tx.insert(lead_events).values({ lead_id: id, kind: "note", actor_id: actor?.id ?? null, actor_name: actorName(actor), body });
    await recordAudit(tx, { actor, action: "lead.note", entity: "lead", entityId: id });
    return true;
  });
}

/**
 * Sets or clears 'Próximo contato', recorded in the timeline as a next_contact event (with the
 * new date, or none when cleared). The same value again records nothing.
 */
export async function setNextContact(db: Database, actor: AuditActor, id: string, at: Date | null): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    await setActor(tx, actor);
    const [before] = await tx.select({ next: leads.next_contact_at }).from(leads).where(eq(leads.id, id)).for("update");
    if (!before) return false;
    const unchanged = (before.next?.getTime() ?? null) === (at?.getTime() ?? null);
    if (unchanged) return true;
    await tx.update(leads).set({ next_contact_at: at }).where(eq(leads.id, id));
    await tx.insert(lead_events).values({ lead_id: id, kind: "next_contact", actor_id: actor?.id ?? null, actor_name: actorName(actor), next_contact_at: at });
    await recordAudit(tx, { actor, action: "lead.update", entity: "lead", entityId: id, details: { fields: ["next_contact_at"] } });
    return true;
  });
}

const actorName = (actor: AuditActor) => (actor ? (actor.name ?? actor.email) : null);
