import { asc, count, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { user, user_roles } from "~/db/schema";
import type { Role } from "~/db/values";
import { type AuditActor, recordAudit, type Tx } from "~/features/audit/audit.server";
import { revokeInvitationsBy } from "./invitations.server";
import { containsPattern, pageInfo, type PageInfo, TABLE_PAGE_SIZE } from "~/lib/pagination";

/** Who can use the CRM (admins only: sign-up is open but grants no role). */

export type UserWithRole = {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  role: Role | null;
  createdAt: string;
};

export type UsersPage = PageInfo & { users: UserWithRole[]; search: string };

/** Name or e-mail contains the search; the expression is the one user_search_idx indexes (migration 0004). */
function searchCondition(search: string) {
  if (!search) return undefined;
  return sql`user_search_text(${user.name}, ${user.email}) like immutable_unaccent(lower(${containsPattern(search)})) escape '\\'`;
}

/** One page of accounts by e-mail, optionally searched by name or e-mail. */
export async function listUsersPage(
  db: Database,
  { search, page }: { search: string; page: number },
  pageSize = TABLE_PAGE_SIZE,
): Promise<UsersPage> {
  const where = searchCondition(search);
  const [{ total }] = await db.select({ total: count() }).from(user).where(where);
  const info = pageInfo(page, total, pageSize);
  if (total === 0) return { ...info, search, users: [] };
  const rows = await db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      role: user_roles.role,
      createdAt: user.createdAt,
    })
    .from(user)
    .leftJoin(user_roles, eq(user_roles.user_id, user.id))
    .where(where)
    .orderBy(asc(user.email))
    .limit(pageSize)
    .offset((info.page - 1) * pageSize);
  return {
    ...info,
    search,
    users: rows.map((row) => ({ ...row, role: row.role ?? null, createdAt: new Date(row.createdAt).toISOString() })),
  };
}

export const OWN_ADMIN_MESSAGE = "Você não pode remover o seu próprio acesso de administrador.";
export const UNVERIFIED_ROLE_MESSAGE =
  "Este usuário ainda não confirmou o email. Só uma conta com email confirmado pode receber acesso ao CRM.";

/**
 * Grants, changes or revokes (role null) a user's role. An admin cannot demote themself, and a
 * role goes only to an account whose e-mail is proven: otherwise whoever signed up first with an
 * address would receive what was meant for its owner.
 */
export async function changeUserRole(
  db: Database,
  actor: { id: string; email: string },
  userId: string,
  role: Role | null,
): Promise<{ ok: true } | { ok: false; message: string; status: number }> {
  if (userId === actor.id && role !== "admin") return { ok: false, message: OWN_ADMIN_MESSAGE, status: 400 };
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({ id: user.id, verified: user.emailVerified, role: user_roles.role })
      .from(user)
      .leftJoin(user_roles, eq(user_roles.user_id, user.id))
      .where(eq(user.id, userId));
    if (!target) return { ok: false, message: "Usuário não encontrado", status: 404 };
    if (role !== null && !target.verified) return { ok: false, message: UNVERIFIED_ROLE_MESSAGE, status: 400 };
    await applyRole(tx, actor, userId, target.role ?? null, role);
    return { ok: true };
  });
}

/**
 * Sets a role (null: none) that was `from`, in the caller's transaction, for the CRM and the CLI
 * alike: audited, and an admin who stops being one takes their pending invitations along.
 */
export async function applyRole(tx: Tx, actor: AuditActor, userId: string, from: Role | null, to: Role | null, source?: "cli") {
  if (from === to) return;
  if (to === null) {
    await tx.delete(user_roles).where(eq(user_roles.user_id, userId));
  } else {
    await tx.insert(user_roles).values({ user_id: userId, role: to }).onConflictDoUpdate({ target: user_roles.user_id, set: { role: to } });
  }
  if (from === "admin") await revokeInvitationsBy(tx, userId, actor, "inviter_not_admin");
  await recordAudit(tx, { actor, action: "user.role", entity: "user", entityId: userId, details: { from, to, ...(source ? { source } : {}) } });
}
