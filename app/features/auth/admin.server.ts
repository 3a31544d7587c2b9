import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { user, user_roles } from "~/db/schema";
import { recordAudit } from "~/features/audit/audit.server";
import { EnvError } from "~/lib/env.server";
import type { Runtime } from "~/features/runtime/handle.server";
import { createUserWithPassword, setUserPassword } from "./auth.server";
import { passwordProblem } from "./password.server";

export const DEFAULT_ADMIN_EMAIL = "admin@exemplo.com.br";

/**
 * Makes sure someone can sign in to the CRM, without ever handing admin to an account whose
 * password this step did not just set (issue 9: whoever signed up first with the broker's
 * address used to become admin on the next start).
 *
 * With ADMIN_EMAIL: an account that is admin already is left alone (a restart must not undo a
 * password the broker chose). A missing account is created; an existing one that is not admin
 * gets ADMIN_PASSWORD (or a new random one), counts as verified, loses all its sessions, and only
 * then becomes admin. Without ADMIN_EMAIL, and no admin at all: admin@exemplo.com.br is created,
 * unless that address is taken (never promoted: nobody here chose its password).
 *
 * A generated password goes to `log` (the terminal) once, never to the structured logger.
 */
export async function ensureAdmin(
  runtime: Pick<Runtime, "db" | "auth" | "env">,
  log: (message: string) => void,
  /** Where a generated password is shown (default: with the other notices). */
  showCredentials: (message: string) => void = log,
) {
  const { db, env, auth } = runtime;
  const configuredEmail = env.ADMIN_EMAIL?.trim().toLowerCase();

  if (configuredEmail) {
    if (env.ADMIN_PASSWORD) {
      const problem = await passwordProblem(env.ADMIN_PASSWORD);
      if (problem) throw new EnvError(`Invalid configuration:\n  ADMIN_PASSWORD: ${problem}`);
    }
    const [existing] = await db
      .select({ id: user.id, role: user_roles.role })
      .from(user)
      .leftJoin(user_roles, eq(user_roles.user_id, user.id))
      .where(eq(user.email, configuredEmail));
    if (existing?.role === "admin") return;

    const generated = env.ADMIN_PASSWORD ? undefined : generatePassword();
    const password = env.ADMIN_PASSWORD ?? generated!;
    let userId: string;
    if (existing) {
      // Whoever made this account (maybe not the broker) loses it: new password, no sessions.
      await setUserPassword({ auth, db }, configuredEmail, password);
      await db.update(user).set({ emailVerified: true, updatedAt: new Date() }).where(eq(user.id, existing.id));
      userId = existing.id;
    } else {
      userId = (await createUserWithPassword(auth, { email: configuredEmail, password, name: env.ADMIN_NAME })).id;
    }
    await db.transaction(async (tx) => {
      await tx
        .insert(user_roles)
        .values({ user_id: userId, role: "admin" })
        .onConflictDoUpdate({ target: user_roles.user_id, set: { role: "admin" } });
      await recordAudit(tx, {
        actor: null,
        action: "user.role",
        entity: "user",
        entityId: userId,
        details: { from: existing?.role ?? null, to: "admin", source: "ADMIN_EMAIL" },
      });
    });
    if (generated) printCredentials(showCredentials, configuredEmail, generated, existing ? "reset" : "created");
    else if (existing) log(`[admin] ${configuredEmail} agora é admin, com a senha de ADMIN_PASSWORD; as sessões abertas dessa conta foram encerradas.`);
    return;
  }

  const [anyAdmin] = await db
    .select({ id: user_roles.user_id })
    .from(user_roles)
    .where(eq(user_roles.role, "admin"))
    .limit(1);
  if (anyAdmin) return;

  const [taken] = await db.select({ id: user.id }).from(user).where(eq(user.email, DEFAULT_ADMIN_EMAIL));
  if (taken) {
    // Someone made this address's account (a sign-up, or an admin revoked on purpose): its
    // password is not ours to know, so it is not promoted.
    log(
      `[admin] Nenhum admin. ${DEFAULT_ADMIN_EMAIL} já existe e não foi promovido. Defina ADMIN_EMAIL e reinicie, ou use: npm run cli -- user:create --role admin --email … --name …`,
    );
    return;
  }
  const password = generatePassword();
  const created = await createUserWithPassword(auth, { email: DEFAULT_ADMIN_EMAIL, password, name: env.ADMIN_NAME });
  await db.transaction(async (tx) => {
    await tx.insert(user_roles).values({ user_id: created.id, role: "admin" });
    await recordAudit(tx, { actor: null, action: "user.role", entity: "user", entityId: created.id, details: { from: null, to: "admin", source: "default" } });
  });
  printCredentials(showCredentials, DEFAULT_ADMIN_EMAIL, password, "created");
}

function generatePassword(): string {
  // 16 characters from an alphabet without look-alikes, easy to type on a phone (~90 bits).
  const alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return Array.from({ length: 16 }, () => alphabet[crypto.randomInt(alphabet.length)]).join("");
}

function printCredentials(log: (message: string) => void, email: string, password: string, what: "created" | "reset") {
  log(
    [
      "",
      "┌──────────────────────────────────────────────────────────────",
      what === "created"
        ? "│ Acesso de administrador criado (mostrado só esta vez):"
        : "│ Conta existente promovida a administrador com uma NOVA senha",
      what === "reset" ? "│ (as sessões abertas dessa conta foram encerradas; mostrada só esta vez):" : null,
      `│   email: ${email}`,
      `│   senha: ${password}`,
      "│ Entre em /auth e troque a senha em Minha conta, ou no terminal:",
      `│   npm run cli -- user:password ${email}`,
      "└──────────────────────────────────────────────────────────────",
      "",
    ]
      .filter((line) => line !== null)
      .join("\n"),
  );
}

/**
 * How the server shows a generated admin password: on the terminal when there is one; otherwise
 * (a service manager or a pipe, whose output becomes a log that outlives the start) into
 * DATA_DIR/admin-credentials.txt, readable only by the server's user, with a pointer in the log.
 */
export function credentialsNotice(dataDir: string, log: (message: string) => void): (message: string) => void {
  return (message) => {
    if (process.stdout.isTTY) {
      process.stdout.write(message + "\n");
      return;
    }
    const file = path.join(dataDir, "admin-credentials.txt");
    fs.writeFileSync(file, message.trim() + "\n", { mode: 0o600 });
    fs.chmodSync(file, 0o600);
    log(`[admin] Acesso de administrador criado. A senha está em ${file} (só o usuário do servidor lê): apague o arquivo depois de entrar.`);
  };
}
