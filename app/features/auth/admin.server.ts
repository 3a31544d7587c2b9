import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { user, user_roles } from "~/db/schema";
import type { Runtime } from "~/runtime.server";
import { createUserWithPassword } from "./auth.server";

export const DEFAULT_ADMIN_EMAIL = "admin@exemplo.com.br";

/**
 * Makes sure someone can sign in to the CRM. With ADMIN_EMAIL (and ADMIN_PASSWORD) that account
 * exists and is admin; otherwise, when no admin exists at all, one is created with a random
 * password that is printed once. An existing account's password is never changed here (use the
 * CLI's set-password), so a restart cannot undo a password the broker chose.
 */
export async function ensureAdmin(runtime: Pick<Runtime, "db" | "auth" | "env">, log: (message: string) => void) {
  const { db, env, auth } = runtime;
  const configuredEmail = env.ADMIN_EMAIL?.toLowerCase();

  if (configuredEmail) {
    const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, configuredEmail));
    let userId = existing?.id;
    let generated: string | undefined;
    if (!userId) {
      const password = env.ADMIN_PASSWORD ?? (generated = generatePassword());
      userId = (await createUserWithPassword(auth, { email: configuredEmail, password, name: env.ADMIN_NAME })).id;
    }
    await db
      .insert(user_roles)
      .values({ user_id: userId, role: "admin" })
      .onConflictDoUpdate({ target: user_roles.user_id, set: { role: "admin" } });
    if (generated) printCredentials(log, configuredEmail, generated);
    return;
  }

  const [anyAdmin] = await db
    .select({ id: user_roles.user_id })
    .from(user_roles)
    .where(eq(user_roles.role, "admin"))
    .limit(1);
  if (anyAdmin) return;

  const password = generatePassword();
  const [taken] = await db.select({ id: user.id }).from(user).where(eq(user.email, DEFAULT_ADMIN_EMAIL));
  if (taken) {
    // The default address exists without the admin role: someone revoked it on purpose.
    log(`[admin] Nenhum admin configurado. Use: npm run cli -- user:create --role admin ...`);
    return;
  }
  const created = await createUserWithPassword(auth, {
    email: DEFAULT_ADMIN_EMAIL,
    password,
    name: env.ADMIN_NAME,
  });
  await db.insert(user_roles).values({ user_id: created.id, role: "admin" });
  printCredentials(log, DEFAULT_ADMIN_EMAIL, password);
}

function generatePassword(): string {
  // 16 characters from an alphabet without look-alikes, easy to type on a phone.
  const alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = crypto.randomBytes(16);
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join("");
}

function printCredentials(log: (message: string) => void, email: string, password: string) {
  log(
    [
      "",
      "┌──────────────────────────────────────────────────────────────",
      "│ Acesso de administrador criado (mostrado só esta vez):",
      `│   email: ${email}`,
      `│   senha: ${password}`,
      "│ Entre em /auth. Para trocar a senha: npm run cli -- user:password <email>",
      "└──────────────────────────────────────────────────────────────",
      "",
    ].join("\n"),
  );
}
