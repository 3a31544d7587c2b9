import net from "node:net";
import path from "node:path";
import { z } from "zod";

/**
 * The process configuration, read and validated once. A bad value stops the process with the
 * variable's name and what was wrong (see `loadEnv`), instead of failing later in a request.
 * Every variable here is listed in `.env.example` and in the README.
 */

const booleanFromString = z
  .enum(["true", "false", "1", "0", "yes", "no"], {
    error: "use true or false",
  })
  .transform((value) => value === "true" || value === "1" || value === "yes");

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

/** Where a proxy of ours connects from when none is configured: this machine. */
export const DEFAULT_TRUSTED_PROXIES = "127.0.0.1/8,::1";

/** One entry of TRUSTED_PROXIES: an address ("10.0.0.5", "::1") or a CIDR range ("10.0.0.0/24"); null when it is neither. */
export function parseProxyEntry(entry: string): { address: string; prefix: number; family: "ipv4" | "ipv6" } | null {
  const [address, prefixText, ...rest] = entry.trim().split("/");
  const version = net.isIP(address);
  if (version === 0 || rest.length > 0 || address.includes("%")) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!(prefix >= 0 && prefix <= max)) return null;
  return { address, prefix, family: version === 4 ? "ipv4" : "ipv6" };
}

const proxyList = z
  .string()
  .transform((value) => value.split(",").map((entry) => entry.trim()).filter(Boolean))
  .superRefine((entries, ctx) => {
    if (entries.length === 0) ctx.addIssue({ code: "custom", message: "list at least one address, such as 127.0.0.1" });
    for (const entry of entries) {
      if (!parseProxyEntry(entry)) ctx.addIssue({ code: "custom", message: `"${entry}" is not an IP address or a CIDR range (such as 10.0.0.5 or 10.0.0.0/24)` });
    }
  });

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number({ error: "must be a port number" }).int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  PUBLIC_URL: optionalText.pipe(z.url({ error: "must be an absolute URL such as https://example.com" }).optional()),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, { error: "must start with postgres:// or postgresql://" })
      .optional(),
  ),
  /**
   * PostgreSQL: connections each process keeps for the site's requests (plus up to 4 for long
   * work). Processes × (this + 5, counting the LISTEN connection) must stay under the server's
   * max_connections.
   */
  DATABASE_POOL_SIZE: z.coerce.number({ error: "must be a number" }).int().min(1, { error: "must be at least 1" }).max(100).default(10),
  SEED_DEMO: booleanFromString.default(true),
  ADMIN_EMAIL: optionalText.pipe(z.email({ error: "must be an email address" }).optional()),
  ADMIN_PASSWORD: optionalText.pipe(
    z.string().min(8, { error: "must have at least 8 characters" }).max(128).optional(),
  ),
  ADMIN_NAME: z.string().trim().min(2).max(100).default("Administrador"),
  AUTH_SECRET: optionalText.pipe(
    z.string().min(32, { error: "must have at least 32 characters" }).optional(),
  ),
  TRUST_PROXY: booleanFromString.default(false),
  /**
   * With TRUST_PROXY: how many proxies of ours append to X-Forwarded-For. The client is the entry
   * that many places from the right; anything further left was written by the client itself.
   */
  TRUST_PROXY_HOPS: z.coerce.number({ error: "must be a number" }).int().min(1).max(10).default(1),
  /**
   * With TRUST_PROXY: the addresses our nearest proxy connects from (comma-separated IPs or CIDR
   * ranges). X-Forwarded-For is read only on connections from one of them; from anyone else it
   * is the client's own writing, and the connecting address is the client.
   */
  TRUSTED_PROXIES: proxyList.default(DEFAULT_TRUSTED_PROXIES.split(",")),
  STORAGE_DRIVER: z.enum(["local", "s3"], { error: "use local or s3" }).default("local"),
  S3_ENDPOINT: optionalText.pipe(z.url({ error: "must be a URL" }).optional()),
  S3_REGION: z.string().default("us-east-1"),
  S3_BUCKET: optionalText,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: booleanFromString.default(true),
  LEAD_LIMIT_PER_HOUR: z.coerce.number({ error: "must be a number" }).int().min(1).default(10),
  /** Days a sign-up may stay unconfirmed before the account is erased (housekeeping, LGPD). */
  UNCONFIRMED_ACCOUNT_DAYS: z.coerce.number({ error: "must be a number of days" }).int().min(1, { error: "must be at least 1" }).max(365).default(7),
  /** smtp://user:pass@host:587 or smtps://…:465; without it e-mail is off (the CRM says so). */
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, { error: "must start with smtp:// or smtps://" })
      .optional(),
  ),
  /** The sender of every e-mail, e.g. "Corretor <site@exemplo.com.br>". */
  MAIL_FROM: optionalText,
  /** Hours between automatic backups of the embedded database and photos (0 = off). */
  BACKUP_INTERVAL_HOURS: z.coerce.number({ error: "must be a number" }).min(0).max(24 * 30).default(24),
  /** How many automatic backups to keep in DATA_DIR/backups. */
  BACKUP_KEEP: z.coerce.number({ error: "must be a number" }).int().min(1).max(365).default(7),
  /**
   * Worker processes serving one port (server/main.ts). Only with DATABASE_URL: the embedded
   * database lives inside one process. Default: the number of cores with DATABASE_URL, else 1.
   */
  WEB_CONCURRENCY: z.coerce.number({ error: "must be a number" }).int().min(1, { error: "must be at least 1" }).max(64).optional(),
  /** The public page cache's bound in bytes (compressed copies included); 0 turns it off. */
  PAGE_CACHE_MAX_BYTES: z.coerce.number({ error: "must be a number of bytes" }).int().min(0).default(32 * 1024 * 1024),
  /**
   * First-run defaults of the portals' keys (issue 13), both changeable in /crm/configuracoes:
   * the VRSync feed's token (its URL is /feeds/vrsync/<token>.xml) and the password the portals'
   * lead webhook sends (HTTP Basic, user "vivareal"). Unset: a random one is made on first use.
   */
  PORTAL_FEED_TOKEN: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,128}$/, { error: "use 16 to 128 letters, digits, _ or -" })
      .optional(),
  ),
  PORTAL_WEBHOOK_SECRET: optionalText.pipe(
    z.string().min(16, { error: "must have at least 16 characters" }).max(200, { error: "must have at most 200 characters" }).optional(),
  ),
  // --- map and address lookup (issue 22, item 4; docs/decisions/018-location-and-map.md) ---
  /** The map's tile URL template ({z}/{x}/{y}, optional {s}); its origin joins the CSP's img-src. */
  MAP_TILE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^https?:\/\/[^/?#\s]+\/\S*\{z\}\S*\{x\}\S*\{y\}\S*$/, { error: "must be an http(s) URL template with {z}, {x} and {y}" })
      .optional(),
  ),
  /** The tiles' attribution, shown on every map (plain text). */
  MAP_ATTRIBUTION: optionalText.pipe(z.string().max(300, { error: "must have at most 300 characters" }).optional()),
  /** An address-by-CEP service, off when unset: a URL template with {cep} answering ViaCEP's JSON. */
  CEP_LOOKUP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^https?:\/\/\S*\{cep\}\S*$/, { error: "must be an http(s) URL template with {cep}" })
      .optional(),
  ),
  // --- push alerts (issue 25; docs/decisions/030-push-alerts-and-reminders.md) ---
  /** The VAPID key pair (base64url, as web-push generates them); unset: generated once, kept sealed in settings. */
  VAPID_PUBLIC_KEY: optionalText.pipe(z.string().regex(/^[A-Za-z0-9_-]{87}$/, { error: "must be a base64url P-256 public key (87 characters)" }).optional()),
  VAPID_PRIVATE_KEY: optionalText.pipe(z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: "must be a base64url P-256 private key (43 characters)" }).optional()),
  /** Who the push services may contact: a mailto: or https: URL. */
  VAPID_SUBJECT: optionalText.pipe(z.string().regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, { error: "must be a mailto: or https: URL" }).optional()),
  /**
   * Push services besides the browsers' own (FCM, Mozilla, Apple, Windows), comma-separated host
   * names: a subscription's endpoint elsewhere is refused, so the server never posts to an address
   * a visitor chose. For tests and self-hosted push services only.
   */
  PUSH_SERVICE_HOSTS: optionalText.pipe(z.string().regex(/^[A-Za-z0-9.-]+(,[A-Za-z0-9.-]+)*$/, { error: "must be host names separated by commas" }).optional()),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "silent"], { error: "use error, warn, info, debug or silent" }).default("info"),
});

export type Env = z.infer<typeof envSchema> & {
  /** Absolute data folder. */
  dataDir: string;
  /** The site's public origin without a trailing slash. */
  publicUrl: string;
};

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings (as in a copied .env.example) mean "not set".
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ""),
  );
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  ${issue.path.join(".") || "(environment)"}: ${issue.message}`,
    );
    throw new EnvError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  if (env.STORAGE_DRIVER === "s3") {
    const missing = (["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const).filter(
      (name) => !env[name],
    );
    if (missing.length > 0) {
      throw new EnvError(
        `Invalid configuration:\n${missing.map((name) => `  ${name}: required when STORAGE_DRIVER=s3`).join("\n")}`,
      );
    }
  }
  if (env.ADMIN_PASSWORD && !env.ADMIN_EMAIL) {
    throw new EnvError("Invalid configuration:\n  ADMIN_EMAIL: required when ADMIN_PASSWORD is set");
  }
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
    const missing = env.VAPID_PUBLIC_KEY ? "VAPID_PRIVATE_KEY" : "VAPID_PUBLIC_KEY";
    throw new EnvError(`Invalid configuration:\n  ${missing}: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together`);
  }
  if (env.WEB_CONCURRENCY !== undefined && env.WEB_CONCURRENCY > 1 && !env.DATABASE_URL) {
    throw new EnvError(
      "Invalid configuration:\n  WEB_CONCURRENCY: more than 1 needs DATABASE_URL (the embedded database is one process)",
    );
  }
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  return { ...env, dataDir: path.resolve(env.DATA_DIR), publicUrl };
}

const globalForEnv = globalThis as unknown as { __env?: Env };

/** The validated configuration of this process (parsed on first use, then cached). */
export function getEnv(): Env {
  globalForEnv.__env ??= parseEnv(process.env);
  return globalForEnv.__env;
}

/** The runtime (and through it tests and the CLI) sets the configuration it was started with. */
export function setEnv(env: Env | undefined) {
  globalForEnv.__env = env;
}

/** How many worker processes serve HTTP: WEB_CONCURRENCY, else every core on PostgreSQL, else 1. */
export function webConcurrency(env: Pick<Env, "WEB_CONCURRENCY" | "DATABASE_URL">, cores: number): number {
  if (env.WEB_CONCURRENCY !== undefined) return env.WEB_CONCURRENCY;
  return env.DATABASE_URL ? Math.max(1, cores) : 1;
}
