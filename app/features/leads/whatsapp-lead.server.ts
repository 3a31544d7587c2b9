import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, properties } from "~/db/schema";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { setActor } from "./timeline-actor.server";
import type { WhatsappLeadValues } from "./whatsapp-lead-schema";

/**
 * A WhatsApp conversation recorded from the dashboard (issue 25, decision 028): a lead with
 * origin 'whatsapp' and status 'novo', created as the CRM's lead form creates one — the actor on
 * the timeline's 'created' row (database trigger) and a 'lead.create' audit row naming no value.
 * The interest follows the listing (for rent: alugar; otherwise comprar, the column's default).
 */
export async function createWhatsappLead(
  db: Database,
  actor: AuditActor,
  values: WhatsappLeadValues,
): Promise<{ ok: true; id: string } | { ok: false; reason: "property" }> {
  return db.transaction(async (tx) => {
    await setActor(tx, actor);
    let interest: "comprar" | "alugar" = "comprar";
    if (values.property_id) {
      const [listing] = await tx.select({ purpose: properties.purpose }).from(properties).where(eq(properties.id, values.property_id));
      if (!listing) return { ok: false, reason: "property" } as const;
      if (listing.purpose === "aluguel") interest = "alugar";
    }
    const [row] = await tx
      .insert(leads)
      .values({ full_name: values.full_name, phone: values.phone, origin: "whatsapp", status: "novo", interest_type: interest, property_id: values.property_id })
      .returning({ id: leads.id });
    await recordAudit(tx, { actor, action: "lead.create", entity: "lead", entityId: row.id, details: { origin: "whatsapp" } });
    return { ok: true, id: row.id } as const;
  });
}
