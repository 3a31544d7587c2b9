import type { Database } from "~/db/client.server";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { isUuid } from "~/lib/ids";
import { exportOwner } from "./owners.server";

/** The owner's LGPD export as a JSON download with Portuguese keys; the audit row keeps the id only. */
export async function exportOwnerResponse(db: Database, actor: AuditActor, id: string): Promise<Response> {
  const notFound = () => new Response("Proprietário não encontrado.", { status: 404, headers: { "Cache-Control": "no-store" } });
  if (!isUuid(id)) return notFound();
  const document = await exportOwner(db, id);
  if (!document) return notFound();
  await recordAudit(db, { actor, action: "owner.export", entity: "owner", entityId: id });
  return new Response(JSON.stringify(document, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="proprietario-${id.slice(0, 8)}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}
