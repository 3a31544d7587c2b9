import { data } from "react-router";
import { ROLES, type Role } from "~/db/values";
import { firstIssueMessage } from "~/lib/form-data";
import { parseTableQuery } from "~/lib/pagination";
import { asString, readBody, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/features/runtime/handle.server";
import { deleteUser } from "./erasure.server";
import { requireAdmin } from "./guard.server";
import { inviteUser, listPendingInvitations, revokeInvitation } from "./invitations.server";
import { inviteSchema } from "./schema";
import { changeUserRole, listUsersPage } from "./users.server";

/** /crm/usuarios (admins only): accounts, pending invitations, and what an admin does to them. */

export async function usersPageData(request: Request) {
  const admin = await requireAdmin(request);
  const { db, database, mail } = await getRuntime();
  const query = parseTableQuery(new URL(request.url).searchParams);
  return {
    ...(await listUsersPage(db, query)),
    invitations: await listPendingInvitations(db),
    myId: admin.id,
    canDownloadBackup: database.kind === "pglite",
    mailEnabled: mail.enabled,
  };
}

const refuse = (message: string, status: number) => data({ ok: false, message }, { status });

/** Intents: invite, revoke-invitation, delete (an account), and (none) a role change. Every input is checked here. */
export async function usersPageAction(request: Request) {
  const admin = await requireAdmin(request);
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return refuse(body.message, 400);
  const runtime = await getRuntime();

  if (body.intent === "invite") {
    const parsed = inviteSchema.safeParse({ email: asString(body.email), role: asString(body.role) });
    if (!parsed.success) return refuse(firstIssueMessage(parsed.error), 400);
    const result = await inviteUser(runtime, admin, parsed.data);
    if (!result.ok) return refuse(result.message, result.status);
    return { ok: true, message: `Convite enviado para ${parsed.data.email}.` };
  }

  if (body.intent === "delete") {
    const result = await deleteUser(runtime.db, admin, asString(body.id) ?? "");
    if (!result.ok) return refuse(result.message, result.status);
    return { ok: true, message: `Conta de ${result.email} excluída.` };
  }

  if (body.intent === "revoke-invitation") {
    const result = await revokeInvitation(runtime.db, admin, asString(body.id) ?? "");
    if (!result.ok) return refuse(result.message, result.status);
    return { ok: true, message: `Convite para ${result.email} revogado.` };
  }

  const userId = asString(body.userId);
  const roleValue = asString(body.role) ?? "";
  if (!userId || !(roleValue === "" || (ROLES as readonly string[]).includes(roleValue))) return refuse("Pedido inválido", 400);
  const result = await changeUserRole(runtime.db, admin, userId, (roleValue || null) as Role | null);
  if (!result.ok) return refuse(result.message, result.status);
  return { ok: true, message: roleValue ? "Acesso atualizado." : "Acesso removido." };
}
