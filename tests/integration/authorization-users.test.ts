import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invitation, user } from "~/db/schema";
import { inviteUser } from "~/features/auth/invitations.server";
import { action as usersAction } from "~/routes/crm-users";
import { createSignedInUser, makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";
import { ACTORS, ADMIN_PAGE_RULE, context, matrixRuntime, outcomeOf } from "../helpers/authorization";

/**
 * The authorisation matrix for /crm/usuarios's actions added in issue 21: 'Revogar' a pending
 * invitation and 'Excluir' an account. Admins only; anyone else changes nothing.
 */
describe.each(DATABASE_KINDS)("users page authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  const post = (form: Record<string, string>, actor: (typeof ACTORS)[number]) =>
    settle(() => usersAction({ request: makeRequest("/crm/usuarios", { form, cookie: matrix.cookieOf(actor) }), params: {}, context } as never));

  it.each(ACTORS)("action revoke-invitation for %s", async (actor) => {
    const email = `revogar-${actor.toLowerCase()}@exemplo.com`;
    const inviter = matrix.users.admin;
    await inviteUser(matrix.runtime, { id: inviter.id, email: inviter.email, name: "Admin" }, { email, role: "corretor" });
    const [row] = await matrix.runtime.db.select().from(invitation).where(eq(invitation.email, email));
    const result = await post({ intent: "revoke-invitation", id: row.id }, actor);
    expect(outcomeOf(result)).toEqual(ADMIN_PAGE_RULE[actor]);
    const [after] = await matrix.runtime.db.select().from(invitation).where(eq(invitation.id, row.id));
    expect(after.revoked_at !== null).toBe(actor === "admin");
  });

  it.each(ACTORS)("action delete (an account) for %s", async (actor) => {
    const target = await createSignedInUser(matrix.runtime, "corretor");
    const result = await post({ intent: "delete", id: target.id }, actor);
    expect(outcomeOf(result)).toEqual(ADMIN_PAGE_RULE[actor]);
    const left = await matrix.runtime.db.select().from(user).where(eq(user.id, target.id));
    expect(left).toHaveLength(actor === "admin" ? 0 : 1);
  });
});
