/**
 * The broker's chores from a terminal: users, roles, password resets, backups.
 *
 *   npm run cli -- user:list
 *   npm run cli -- user:create --email ana@exemplo.com --name "Ana Souza" --role corretor [--password ...]
 *   npm run cli -- user:password ana@exemplo.com [--password ...]
 *   npm run cli -- role:set ana@exemplo.com admin|corretor [--force]
 *   npm run cli -- role:remove ana@exemplo.com
 *   npm run cli -- backup [--out arquivo]
 *   npm run cli -- restore arquivo.tar.gz [--force]
 *
 * With the embedded database it refuses while the server holds the data folder (two processes
 * writing one PGlite folder corrupt it); with DATABASE_URL it works at any time.
 */
import crypto from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { sendMonthlyOwnerReports } from "~/features/owners/report.server";
import { pruneAlerts } from "~/features/alerts/alerts.server";
import { runAlertDigests } from "~/features/alerts/digest.server";
import { parseArgs } from "node:util";
import { asc, eq } from "drizzle-orm";
import { type DatabaseHandle, migrateDatabase, openDatabase } from "~/db/client.server";
import { user, user_roles } from "~/db/schema";
import { ROLES, type Role } from "~/db/values";
import { createAuthFromEnv, createUserWithPassword, setUserPassword } from "~/features/auth/auth.server";
import { passwordProblem } from "~/features/auth/password.server";
import { applyRole } from "~/features/auth/users.server";
import type { Tx } from "~/features/audit/audit.server";
import { BackupError, restoreBackupArchive, writeBackupArchive } from "~/features/backup/archive.server";
import { DataDirLockedError } from "~/lib/data-dir-lock.server";
import { EnvError, parseEnv } from "~/lib/env.server";

class CliError extends Error {}

const USAGE = `Uso: npm run cli -- <comando> [opções]

Comandos:
  user:list                                   lista usuários e papéis
  user:create --email E --name N [--role R] [--password S]
                                              cria um usuário (senha gerada se omitida)
  user:password <email> [--password S]        define uma nova senha (gerada se omitida)
  role:set <email> <admin|corretor> [--force] dá ou troca o papel (só a email confirmado;
                                              --force confirma o email antes)
  role:remove <email>                         remove o papel (perde o acesso ao CRM)
  backup [--out arquivo]                      cópia do banco de dados e das fotos (.tar.gz)
  restore <arquivo> [--force]                 restaura uma cópia (de backup, /crm/backup ou
                                              DATA_DIR/backups) com o servidor parado
  owner-reports [--period AAAA-MM]            põe na fila os relatórios mensais dos proprietários
  alert-digests                               põe na fila os resumos diários dos alertas 'Avise-me' (um por alerta e dia)
                                              (o mês anterior; nunca duas vezes o mesmo mês)
`;

function generatePassword() {
  return crypto.randomBytes(12).toString("base64url");
}

/** The same rules as the site's forms: 8 to 128 characters, not a common or breached password. */
async function checkPassword(password: string) {
  const problem = await passwordProblem(password);
  if (problem) throw new CliError(problem);
}

function parseRole(value: string | undefined): Role {
  if (!value || !(ROLES as readonly string[]).includes(value)) {
    throw new CliError(`Papel inválido: ${value ?? "(vazio)"}. Use admin ou corretor.`);
  }
  return value as Role;
}

async function findUserId(handle: DatabaseHandle, email: string): Promise<string> {
  const [found] = await handle.db.select({ id: user.id }).from(user).where(eq(user.email, email.trim().toLowerCase()));
  if (!found) throw new CliError(`Usuário não encontrado: ${email}`);
  return found.id;
}

/** The user's role now, read in the transaction that changes it. */
async function currentRole(tx: Tx, userId: string): Promise<Role | null> {
  const [row] = await tx.select({ role: user_roles.role }).from(user_roles).where(eq(user_roles.user_id, userId));
  return row?.role ?? null;
}

export async function runCli(argv: string[], out: (line: string) => void = console.log): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      role: { type: "string" },
      password: { type: "string" },
      out: { type: "string" },
      period: { type: "string" },
      force: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, ...rest] = positionals;
  if (!command || values.help) {
    out(USAGE);
    return;
  }
  const known = ["user:list", "user:create", "user:password", "role:set", "role:remove", "backup", "restore", "owner-reports", "alert-digests"];
  if (!known.includes(command)) throw new CliError(`Comando desconhecido: ${command}\n\n${USAGE}`);

  const env = parseEnv(process.env);
  if (command === "restore") {
    const archive = rest[0];
    if (!archive) throw new CliError("Informe o arquivo da cópia: npm run cli -- restore arquivo.tar.gz [--force]");
    const result = await restoreBackupArchive({
      archive: path.resolve(archive),
      dataDir: env.dataDir,
      force: values.force,
      usingPostgres: Boolean(env.DATABASE_URL),
    });
    if (result.movedAside) out(`O conteúdo anterior foi guardado em ${result.movedAside}`);
    out(`Restaurado em ${env.dataDir}: ${result.database ? "banco de dados e " : ""}${result.photos} arquivos de fotos.`);
    if (result.manifest.database === "postgres") out("O banco PostgreSQL não está nesta cópia: restaure-o com pg_restore (veja o README).");
    if (result.manifest.photos === "s3") out("As fotos ficam no S3 e não estão nesta cópia.");
    return;
  }
  const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.dataDir });
  try {
    await migrateDatabase(handle);
    const auth = createAuthFromEnv(handle.db, env);

    switch (command) {
      case "user:list": {
        const rows = await handle.db
          .select({ email: user.email, name: user.name, role: user_roles.role, createdAt: user.createdAt })
          .from(user)
          .leftJoin(user_roles, eq(user_roles.user_id, user.id))
          .orderBy(asc(user.email));
        if (rows.length === 0) out("Nenhum usuário.");
        for (const row of rows) out(`${row.email}\t${row.role ?? "(sem papel)"}\t${row.name}`);
        return;
      }
      case "user:create": {
        if (!values.email || !values.name) throw new CliError("Informe --email e --name");
        const role = values.role ? parseRole(values.role) : undefined;
        const password = values.password ?? generatePassword();
        await checkPassword(password);
        const created = await createUserWithPassword(auth, { email: values.email, name: values.name, password });
        if (role) await handle.db.transaction((tx) => applyRole(tx, null, created.id, null, role, "cli"));
        out(`Usuário criado: ${created.email}${role ? ` (${role})` : " (sem papel)"}`);
        if (!values.password) out(`Senha gerada: ${password}`);
        return;
      }
      case "user:password": {
        const email = rest[0] ?? values.email;
        if (!email) throw new CliError("Informe o email");
        const password = values.password ?? generatePassword();
        await checkPassword(password);
        await setUserPassword({ auth, db: handle.db }, email, password);
        out(`Senha alterada para ${email}; as sessões abertas foram encerradas.`);
        if (!values.password) out(`Nova senha: ${password}`);
        return;
      }
      case "role:set": {
        const [email, roleValue] = rest;
        if (!email) throw new CliError("Informe o email");
        const role = parseRole(roleValue ?? values.role);
        const userId = await findUserId(handle, email);
        // A role goes only to an account whose address is proven (issue 9): otherwise whoever
        // signed up with someone else's address would get that person's access.
        const [target] = await handle.db.select({ verified: user.emailVerified }).from(user).where(eq(user.id, userId));
        if (!target.verified) {
          if (!values.force) {
            throw new CliError(
              `${email} ainda não confirmou o email: só uma conta com email confirmado recebe acesso ao CRM.\n` +
                "Peça que a pessoa confirme pelo link enviado, convide-a pelo CRM (Usuários), ou, se você sabe que o endereço é dela, repita com --force (marca o email como confirmado).",
            );
          }
          await handle.db.update(user).set({ emailVerified: true, updatedAt: new Date() }).where(eq(user.id, userId));
        }
        await handle.db.transaction(async (tx) => applyRole(tx, null, userId, await currentRole(tx, userId), role, "cli"));
        out(`${email} agora é ${role}.`);
        return;
      }
      case "role:remove": {
        const email = rest[0] ?? values.email;
        if (!email) throw new CliError("Informe o email");
        const userId = await findUserId(handle, email);
        await handle.db.transaction(async (tx) => applyRole(tx, null, userId, await currentRole(tx, userId), null, "cli"));
        out(`${email} não tem mais papel (sem acesso ao CRM).`);
        return;
      }
      case "owner-reports": {
        // The monthly owner reports (decision 024): the previous month, or --period AAAA-MM; idempotent.
        if (values.period !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(values.period)) throw new CliError("Período inválido: use --period AAAA-MM");
        const result = await sendMonthlyOwnerReports(handle.db, new Date(), values.period);
        out(`Relatórios de ${result.period}: ${result.queued} e-mail(s) na fila.`);
        return;
      }
      case "alert-digests": {
        // 'Avise-me' (decision 025): today's digests, at most one per alert and day; idempotent.
        await pruneAlerts(handle.db);
        const result = await runAlertDigests(handle.db, env);
        out(`Alertas confirmados: ${result.alerts}; resumos na fila: ${result.queued}.`);
        return;
      }
      case "backup": {
        const stamp = new Date().toISOString().replace(/[:.]/g, "-");
        if (handle.kind === "pglite") {
          const file = path.resolve(values.out ?? `backup-${stamp}.tar.gz`);
          await writeBackupArchive({ database: handle, dataDir: env.dataDir, storageKind: env.STORAGE_DRIVER }, file);
          out(`Cópia (banco de dados e fotos) salva em ${file}. Restaure com: npm run cli -- restore ${path.basename(file)}`);
        } else {
          const file = path.resolve(values.out ?? `backup-${stamp}.sql`);
          const result = spawnSync("pg_dump", ["--no-owner", "--file", file, env.DATABASE_URL!], { stdio: "inherit" });
          if (result.error || result.status !== 0) {
            throw new CliError("pg_dump falhou ou não está instalado (pacote postgresql-client).");
          }
          out(`Cópia salva em ${file}`);
        }
        return;
      }
    }
  } finally {
    await handle.close();
  }
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  // What the CLI writes (a restored database, backups) is for this user only, as the server's.
  process.umask(0o077);
  if (fs.existsSync(".env")) process.loadEnvFile(".env");
  runCli(process.argv.slice(2)).then(
    () => process.exit(0),
    (error: unknown) => {
      const expected = error instanceof CliError || error instanceof DataDirLockedError || error instanceof EnvError || error instanceof BackupError;
      // Our own refusals need no stack trace; anything else shows it, for whoever debugs it.
      console.error(expected || (error instanceof Error && !process.env.DEBUG) ? (error as Error).message : error);
      process.exit(1);
    },
  );
}
