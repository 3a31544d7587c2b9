import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { owners } from "~/db/schema";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { isUuid } from "~/lib/ids";
import { formatDocument } from "./document";
import { getOwner } from "./owners.server";

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

/** Everything held about an owner, in Portuguese, for the LGPD export (admins). */
async function exportOwner(db: Database, id: string) {
  const owner = await getOwner(db, id);
  if (!owner) return null;
  const [row] = await db.select({ document: owners.document }).from(owners).where(eq(owners.id, id));
  return {
    titular: "proprietário",
    gerado_em: new Date().toISOString(),
    dados: {
      id: owner.id,
      nome: owner.full_name,
      telefone: owner.phone,
      email: owner.email,
      cpf_cnpj: row?.document ? formatDocument(row.document) : null,
      observacoes: owner.notes,
      nao_receber_relatorio: owner.report_opt_out,
      anonimizado: owner.anonymized,
      criado_em: owner.created_at,
      atualizado_em: owner.updated_at,
    },
    imoveis: owner.listings.map((listing) => ({
      codigo: listing.codigo,
      titulo: listing.title,
      captacao: listing.captacao
        ? {
            autorizacao: listing.captacao.authorization_type === "exclusiva" ? "exclusiva" : "não exclusiva",
            inicio: listing.captacao.starts_on,
            termino: listing.captacao.ends_on,
            comissao_percentual: listing.captacao.commission,
            local_das_chaves: listing.captacao.keys_location,
            nota_do_relatorio: listing.captacao.report_note,
            documento_pdf_guardado: listing.captacao.has_document,
          }
        : null,
    })),
  };
}
