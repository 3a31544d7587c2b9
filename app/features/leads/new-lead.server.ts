import { desc, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads } from "~/db/schema";

/** The newest lead that came from the site or a portal (issue 13), for the CRM's 'Novo lead' toast. */
export type LatestSiteLead = { id: string; name: string; createdAt: string } | null;

/**
 * Read on every CRM page (the layout): one row through leads_created_at_idx. Staff-entered leads
 * with origin "site" count too — rare, and a toast about them is harmless.
 */
export async function latestSiteLead(db: Database): Promise<LatestSiteLead> {
  const [row] = await db
    .select({ id: leads.id, name: leads.full_name, createdAt: leads.created_at })
    .from(leads)
    .where(inArray(leads.origin, ["site", "portal"]))
    .orderBy(desc(leads.created_at), desc(leads.id))
    .limit(1);
  return row ? { id: row.id, name: row.name, createdAt: new Date(row.createdAt).toISOString() } : null;
}
