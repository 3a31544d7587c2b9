import { data, redirect } from "react-router";
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { properties } from "~/db/schema";
import type { StaffUser } from "~/features/auth/guard.server";
import type { MediaStorage } from "~/features/media/storage.server";
import { firstIssueMessage } from "~/lib/form-data";
import { isUuid } from "~/lib/ids";
import { errorFields, logger } from "~/lib/logger.server";
import { readBody, UnreadableBody } from "~/lib/request-body.server";

type Fields = Record<string, unknown>;
import { anonymizeOwner, createOwner, deleteOwner, getOwner, listOwners, updateOwner } from "./owners.server";
import {
  DocumentRejected,
  isLinked,
  linkListing,
  MAX_DOCUMENT_BYTES,
  readDocument,
  removeDocument,
  saveCaptacao,
  storeDocument,
  unlinkListing,
} from "./captacao.server";
import { sendOwnerReportNow } from "./report.server";
import { captacaoSchema, OWNER_MESSAGES, ownerSchema, parseOwnerSearch } from "./schema";

/** What /crm/proprietarios and /crm/proprietarios/:id load and do (staff; the routes check). */

type Deps = { db: Database; storage: MediaStorage };
export type OwnerAnswer = { ok: boolean; message: string; intent?: string; field?: string };

const fail = (status: number, message: string, intent: string, field?: string) =>
  data<OwnerAnswer>({ ok: false, message, intent, ...(field ? { field } : {}) }, { status });
const done = (message: string, intent: string): OwnerAnswer => ({ ok: true, message, intent });
const actorOf = (staff: StaffUser) => ({ id: staff.id, email: staff.email, name: staff.name });
const str = (value: unknown) => (typeof value === "string" ? value : undefined);

export async function loadOwnersPage(db: Database, url: URL, staff: StaffUser) {
  const search = parseOwnerSearch(url.searchParams.get("q"));
  const q = search.ok ? search.q : "";
  const list = await listOwners(db, q);
  const page = { q, searchError: search.ok ? null : search.message, ...list, isAdmin: staff.role === "admin" };
  return search.ok ? page : data(page, { status: 400 });
}

function parseOwner(body: Fields, intent: string) {
  const parsed = ownerSchema.safeParse({
    full_name: str(body.full_name) ?? "",
    phone: str(body.phone),
    email: str(body.email),
    document: str(body.document),
    notes: str(body.notes),
    report_opt_out: str(body.report_opt_out),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false as const, response: fail(400, firstIssueMessage(parsed.error), intent, issue?.path?.[0] as string | undefined) };
  }
  return { ok: true as const, value: parsed.data };
}

export async function handleOwnersAction(deps: Deps, request: Request, staff: StaffUser) {
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return fail(400, body.message, "");
  const intent = str(body.intent) ?? "";
  if (intent === "create") {
    const parsed = parseOwner(body, intent);
    if (!parsed.ok) return parsed.response;
    const id = await createOwner(deps.db, actorOf(staff), parsed.value);
    return redirect(`/crm/proprietarios/${id}`);
  }
  if (intent === "delete") {
    const id = str(body.id);
    if (!isUuid(id)) return fail(400, OWNER_MESSAGES.notFound, intent);
    if (!(await deleteOwner(deps, actorOf(staff), id))) return fail(404, OWNER_MESSAGES.notFound, intent);
    return done(OWNER_MESSAGES.deleted, intent);
  }
  return fail(400, OWNER_MESSAGES.unknownIntent, intent);
}

export async function loadOwnerPage(deps: Deps, id: string, staff: StaffUser) {
  const owner = await getOwner(deps.db, id);
  if (!owner) throw new Response(OWNER_MESSAGES.notFound, { status: 404 });
  return { owner, isAdmin: staff.role === "admin" };
}

const isMultipart = (request: Request) => request.headers.get("content-type")?.toLowerCase().startsWith("multipart/form-data") ?? false;

/** A multipart body of at most 10 MB plus its framing; larger is refused while reading. */
async function readUpload(request: Request): Promise<{ fields: Record<string, string>; file: Buffer | null } | { error: string; status: number }> {
  const limit = MAX_DOCUMENT_BYTES + 64 * 1024;
  if (Number(request.headers.get("content-length") ?? "0") > limit) return { error: OWNER_MESSAGES.documentTooLarge, status: 413 };
  if (!request.body) return { error: OWNER_MESSAGES.documentMissing, status: 400 };
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done: finished, value } = await reader.read();
    if (finished) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return { error: OWNER_MESSAGES.documentTooLarge, status: 413 };
    }
    chunks.push(value);
  }
  let form: FormData;
  try {
    form = await new Response(Buffer.concat(chunks), { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
  } catch {
    return { error: OWNER_MESSAGES.documentMissing, status: 400 };
  }
  const fields: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string") fields[key] = value;
  const file = form.get("file");
  return { fields, file: file instanceof Blob && file.size > 0 ? Buffer.from(await file.arrayBuffer()) : null };
}

export async function handleOwnerAction(deps: Deps, request: Request, ownerId: string, staff: StaffUser) {
  if (!isUuid(ownerId)) return fail(404, OWNER_MESSAGES.notFound, "");
  const actor = actorOf(staff);

  if (isMultipart(request)) {
    // The authorisation upload sends a file; other forms may come as multipart too.
    const upload = await readUpload(request);
    if ("error" in upload) return fail(upload.status, upload.error, "document");
    if (upload.file || upload.fields.intent === "document") return uploadDocument(deps, actor, ownerId, upload.fields.property_id, upload.file);
    return handleOwnerFields(deps, upload.fields, ownerId, staff);
  }
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return fail(400, body.message, "");
  return handleOwnerFields(deps, body, ownerId, staff);
}

async function uploadDocument(deps: Deps, actor: ReturnType<typeof actorOf>, ownerId: string, propertyId: string | undefined, file: Buffer | null) {
  const intent = "document";
  if (!isUuid(propertyId) || !(await isLinked(deps.db, ownerId, propertyId))) return fail(404, OWNER_MESSAGES.propertyNotFound, intent);
  if (!file) return fail(400, OWNER_MESSAGES.documentMissing, intent);
  if (file.length > MAX_DOCUMENT_BYTES) return fail(413, OWNER_MESSAGES.documentTooLarge, intent);
  try {
    const result = await storeDocument(deps, actor, propertyId, file);
    if (result === "no-captacao") return fail(409, "Salve os dados da captação antes de enviar a autorização", intent);
    return done(OWNER_MESSAGES.documentSaved, intent);
  } catch (error) {
    if (error instanceof DocumentRejected) return fail(400, OWNER_MESSAGES.documentNotPdf, intent);
    logger("owners").error({ ...errorFields(error) }, "authorisation document could not be stored");
    return fail(500, OWNER_MESSAGES.documentFailed, intent);
  }
}

async function handleOwnerFields(deps: Deps, body: Fields, ownerId: string, staff: StaffUser) {
  const intent = str(body.intent) ?? "";
  const actor = actorOf(staff);
  switch (intent) {
    case "update": {
      const parsed = parseOwner(body, intent);
      if (!parsed.ok) return parsed.response;
      if (!(await updateOwner(deps.db, actor, ownerId, parsed.value))) return fail(404, OWNER_MESSAGES.notFound, intent);
      return done(OWNER_MESSAGES.saved, intent);
    }
    case "delete": {
      if (!(await deleteOwner(deps, actor, ownerId))) return fail(404, OWNER_MESSAGES.notFound, intent);
      return redirect("/crm/proprietarios");
    }
    case "anonymize": {
      if (staff.role !== "admin") return fail(403, OWNER_MESSAGES.adminOnly, intent);
      const result = await anonymizeOwner(deps, actor, ownerId);
      if (result === "missing") return fail(404, OWNER_MESSAGES.notFound, intent);
      if (result === "already") return fail(409, OWNER_MESSAGES.alreadyAnonymized, intent);
      return done(OWNER_MESSAGES.anonymized, intent);
    }
    case "link": {
      const codigo = (str(body.codigo) ?? "").trim();
      if (!codigo || codigo.length > 40) return fail(400, "Informe o código do imóvel", intent, "codigo");
      const result = await linkListing(deps.db, actor, ownerId, codigo);
      if (result === "owner") return fail(404, OWNER_MESSAGES.notFound, intent);
      if (result === "property") return fail(404, OWNER_MESSAGES.propertyNotFound, intent, "codigo");
      if (result === "already") return fail(409, OWNER_MESSAGES.alreadyLinked, intent, "codigo");
      return done(OWNER_MESSAGES.linked, intent);
    }
    case "unlink": {
      const propertyId = str(body.property_id);
      if (!isUuid(propertyId) || !(await unlinkListing(deps.db, actor, ownerId, propertyId))) return fail(404, OWNER_MESSAGES.propertyNotFound, intent);
      return done(OWNER_MESSAGES.unlinked, intent);
    }
    case "captacao": {
      const propertyId = str(body.property_id);
      if (!isUuid(propertyId) || !(await isLinked(deps.db, ownerId, propertyId))) return fail(404, OWNER_MESSAGES.propertyNotFound, intent);
      const parsed = captacaoSchema.safeParse({
        authorization_type: str(body.authorization_type),
        starts_on: str(body.starts_on),
        ends_on: str(body.ends_on),
        commission: str(body.commission),
        keys_location: str(body.keys_location),
        report_note: str(body.report_note),
      });
      if (!parsed.success) return fail(400, firstIssueMessage(parsed.error), intent, parsed.error.issues[0]?.path?.[0] as string | undefined);
      await saveCaptacao(deps.db, actor, propertyId, parsed.data);
      return done(OWNER_MESSAGES.captacaoSaved, intent);
    }
    case "report": {
      const result = await sendOwnerReportNow(deps.db, actor, ownerId, new Date());
      if (result === "missing") return fail(404, OWNER_MESSAGES.notFound, intent);
      if (result === "no-email") return fail(409, OWNER_MESSAGES.reportNoEmail, intent);
      if (result === 0) return fail(409, OWNER_MESSAGES.reportNoListings, intent);
      return done(OWNER_MESSAGES.reportQueued(result), intent);
    }
    case "document-delete": {
      const propertyId = str(body.property_id);
      if (!isUuid(propertyId) || !(await isLinked(deps.db, ownerId, propertyId))) return fail(404, OWNER_MESSAGES.propertyNotFound, intent);
      if (!(await removeDocument(deps, actor, propertyId))) return fail(404, "Nenhuma autorização guardada", intent);
      return done(OWNER_MESSAGES.documentRemoved, intent);
    }
    default:
      return fail(400, OWNER_MESSAGES.unknownIntent, intent);
  }
}

/** GET /crm/captacao/:propertyId/documento: the authorisation PDF, to staff only, never cached. */
export async function serveDocument(deps: Deps, propertyId: string): Promise<Response> {
  const notFound = () => new Response("Não encontrado.", { status: 404, headers: { "Cache-Control": "no-store" } });
  if (!isUuid(propertyId)) return notFound();
  const body = await readDocument(deps, propertyId);
  if (!body) return notFound();
  const [property] = await deps.db.select({ codigo: properties.codigo }).from(properties).where(eq(properties.id, propertyId));
  const name = `autorizacao-${(property?.codigo ?? "imovel").replace(/[^A-Za-z0-9-]/g, "")}.pdf`;
  return new Response(new Uint8Array(body), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(body.length),
      "Content-Disposition": `inline; filename="${name}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox",
    },
  });
}
