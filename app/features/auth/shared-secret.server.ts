import crypto from "node:crypto";
import type { DatabaseHandle } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { ensureAuthSecret } from "./auth-secret.server";

/**
 * Several servers on one PostgreSQL must share one auth secret: it signs the session cookies and
 * seals the e-mail links' tokens and the push key (vapid.server.ts). A server started with
 * another one (AUTH_SECRET forgotten on one machine, so it generated its own into its DATA_DIR)
 * would refuse every session the others made whenever the load balancer sent a visitor to it,
 * fail to send the links they sealed, and replace the push key pair — dropping every device's
 * subscription — on meeting theirs. So each server names its PostgreSQL connections after a
 * fingerprint of its secret (`application_name`), and a server that finds a live connection of a
 * server with another fingerprint refuses to start. Only live connections count: a secret
 * changed on every server (all stopped first), or a database restored for new machines, starts.
 *
 * The fingerprint is 64 bits of a key derived from the secret (HKDF), visible to whoever may read
 * pg_stat_activity: it tells nothing usable about a random secret (`openssl rand -base64 48`).
 */

const PREFIX = "corretor-site ";

export function secretFingerprint(secret: string): string {
  return Buffer.from(crypto.hkdfSync("sha256", secret, "corretor-servers", "auth secret fingerprint v1", 8)).toString("hex");
}

/** The connection name this server's PostgreSQL connections carry. */
export function serverConnectionName(env: Pick<Env, "dataDir" | "AUTH_SECRET">): string {
  return PREFIX + secretFingerprint(ensureAuthSecret(env.dataDir, env.AUTH_SECRET));
}

/** DATABASE_URL with this server's connection name (pg reads application_name from the URL). */
export function namedDatabaseUrl(databaseUrl: string, env: Pick<Env, "dataDir" | "AUTH_SECRET">): string {
  const url = new URL(databaseUrl);
  url.searchParams.set("application_name", serverConnectionName(env));
  return url.toString();
}

export class SecretMismatchError extends Error {}

/**
 * Refuses (throws) when a running server on this database uses another auth secret. Called at
 * start-up under the start-up lock, once this server's own listening connection is open, so of
 * two servers starting at once with different secrets the second refuses.
 */
export async function refuseAnotherSecret(handle: DatabaseHandle, env: Pick<Env, "dataDir" | "AUTH_SECRET">): Promise<void> {
  if (handle.kind !== "postgres") return;
  const { rows } = await handle.pool!.query<{ others: number }>(
    `select count(*)::int as others from pg_stat_activity
     where datname = current_database() and pid <> pg_backend_pid()
       and application_name like $1 and application_name <> $2`,
    [`${PREFIX}%`, serverConnectionName(env)],
  );
  if ((rows[0]?.others ?? 0) > 0) {
    throw new SecretMismatchError(
      "Outro servidor ligado a este banco usa outro segredo de autenticação: sessões, links de e-mail e alertas " +
        "não valeriam entre os dois. Configure o mesmo AUTH_SECRET em todos os servidores (veja 'Several servers' no README).",
    );
  }
}
