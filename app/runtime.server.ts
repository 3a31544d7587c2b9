import path from "node:path";
import {
  JOB_LOCKS,
  migrateDatabase,
  openDatabase,
  withJobLock,
  withStartupLock,
} from "~/db/client.server";
import { createAuthFromEnv } from "~/features/auth/auth.server";
import { credentialsNotice, ensureAdmin } from "~/features/auth/admin.server";
import { namedDatabaseUrl, refuseAnotherSecret } from "~/features/auth/shared-secret.server";
import { startBackupSchedule } from "~/features/backup/schedule.server";
import { seedDemoIfEmpty } from "~/features/properties/seed/seed.server";
import { LiveHub } from "~/features/live/hub.server";
import { pruneOutbox } from "~/features/mail/housekeeping.server";
import { queueVisitReminders, visitorMailDeps } from "~/features/visits/visitor-mail.server";
import { pruneAlerts } from "~/features/alerts/alerts.server";
import { runAlertDigests } from "~/features/alerts/digest.server";
import { sealStoredLinks } from "~/features/mail/stored-links.server";
import { idleMailWorker, startMailWorker } from "~/features/mail/worker.server";
import { prunePush } from "~/features/push/housekeeping.server";
import { idlePushWorker, startPushWorker } from "~/features/push/worker.server";
import { sweepOrphanMedia } from "~/features/media/cleanup.server";
import { type MediaStorage, LocalDiskStorage } from "~/features/media/storage.server";
import { sendMonthlyOwnerReports } from "~/features/owners/report.server";
import { expireProposals } from "~/features/deals/proposals.server";
import { brokerDay } from "~/lib/format";
import { prepareDataDir } from "~/lib/data-dir-lock.server";
import { errorFields, logger } from "~/lib/logger.server";
import { pruneThrottle } from "~/lib/throttle.server";
import { expireUnconfirmedAccounts } from "~/features/auth/erasure.server";
import { pruneSignInRecords } from "~/features/auth/sign-in-guard.server";
import { runRetentionIfDue } from "~/features/privacy/retention.server";
import { type Env, getEnv, setEnv } from "~/lib/env.server";
import { provideRuntime, type Runtime } from "~/features/runtime/handle.server";

// The Runtime type lives with the handle features read (decision 034); routes, the server and
// tests still import both from here, the composition root.
export type { Runtime };
import { stopPropertyViews } from "~/features/reports/views.server";

export type StartOptions = {
  env?: Env;
  /** Seed demo listings and make sure an admin exists (off for tests that build their own data). */
  firstStartTasks?: boolean;
  log?: (message: string) => void;
};

const state = globalThis as unknown as {
  __runtime?: Promise<Runtime>;
  __runtimeStopping?: Promise<void>;
};

export async function createStorage(env: Env): Promise<MediaStorage> {
  if (env.STORAGE_DRIVER === "s3") {
    // Loaded only when used: the AWS SDK adds about 22 MB to every process that imports it.
    const { S3Storage } = await import("~/features/media/s3-storage.server");
    // parseEnv has made sure bucket and keys are set.
    return new S3Storage({
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      bucket: env.S3_BUCKET!,
      accessKeyId: env.S3_ACCESS_KEY_ID!,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    });
  }
  return new LocalDiskStorage(path.join(env.dataDir, "uploads"));
}

async function start(options: StartOptions): Promise<Runtime> {
  const env = options.env ?? getEnv();
  // Code that reads the configuration outside the runtime (e.g. the root loader) sees the same.
  setEnv(env);
  const startupLog = logger("startup");
  const log = options.log ?? ((message: string) => startupLog.info(message));
  // A server's connections carry a fingerprint of its auth secret (several servers must share one).
  const databaseUrl = env.DATABASE_URL && (options.firstStartTasks ?? true) ? namedDatabaseUrl(env.DATABASE_URL, env) : env.DATABASE_URL;
  const database = await openDatabase({ databaseUrl, dataDir: env.dataDir, poolSize: env.DATABASE_POOL_SIZE });
  // DATA_DIR holds the database, photos, backups and the auth secret: this user's eyes only.
  // Narrowed once the database is open: PGlite writes a new database's files world-writable.
  prepareDataDir(env.dataDir, { narrowContents: true });
  let live: LiveHub | undefined;
  try {
    await migrateDatabase(database);
    const auth = createAuthFromEnv(database.db, env);
    // Account e-mails stored with a raw token (before issue 21) lose it; cheap once done.
    await sealStoredLinks(database.db, env).catch((error) => startupLog.error(errorFields(error), "could not seal stored e-mail links"));
    const storage = await createStorage(env);
    live = new LiveHub();
    await live.start(database);
    const runtime: Runtime = { env, database, db: database.db, auth, storage, live, stopHousekeeping: () => {}, mail: idleMailWorker(env), push: idlePushWorker, backups: { stop: async () => {} } };
    if (options.firstStartTasks ?? true) {
      await withStartupLock(database, async () => {
        await refuseAnotherSecret(database, env);
        if (env.SEED_DEMO) await seedDemoIfEmpty(runtime, log);
        await ensureAdmin(runtime, log, options.log ?? credentialsNotice(env.dataDir, log));
      });
      const stopHousekeeping = startHousekeeping(runtime);
      const stopRetention = startRetentionJob(runtime);
      runtime.stopHousekeeping = () => {
        stopHousekeeping();
        stopRetention();
      };
      runtime.backups = startBackupSchedule(runtime);
      runtime.mail = startMailWorker(runtime);
      runtime.push = startPushWorker(runtime);
    }
    return runtime;
  } catch (error) {
    await live?.stop();
    await database.close().catch(() => {});
    throw error;
  }
}

/**
 * One housekeeping round: photos no listing shows for a day (a dialog closed by a dead browser),
 * old rate-limit windows, old account e-mails (features/mail/housekeeping.server.ts), sign-ins
 * recorded more than 90 days ago, and sign-ups never confirmed within UNCONFIRMED_ACCOUNT_DAYS.
 * Cheap queries; a failure is logged and retried next round. With several processes on
 * PostgreSQL (WEB_CONCURRENCY), one of them does each round.
 */
export async function housekeepingRound(runtime: Pick<Runtime, "db" | "storage" | "database" | "env">): Promise<void> {
  const log = logger("housekeeping");
  await withJobLock(runtime.database, JOB_LOCKS.housekeeping, async () => {
    await sweepOrphanMedia(runtime).catch((error) => log.error({ ...errorFields(error) }, "media sweep failed"));
    // After a flood of attempts from many addresses this one delete can be long work.
    await pruneThrottle(runtime.database.longDb).catch((error) => log.error({ ...errorFields(error) }, "throttle prune failed"));
    await pruneOutbox(runtime.db).catch((error) => log.error({ ...errorFields(error) }, "outbox prune failed"));
    await prunePush(runtime.db).catch((error) => log.error({ ...errorFields(error) }, "push prune failed"));
    await pruneSignInRecords(runtime.db).catch((error) => log.error({ ...errorFields(error) }, "sign-in records prune failed"));
    await expireUnconfirmedAccounts(runtime.db, runtime.env.UNCONFIRMED_ACCOUNT_DAYS)
      // A count only: who is in the audit trail by id, and no personal value is ever logged.
      .then((erased) => erased > 0 && log.info({ erased }, "unconfirmed accounts erased"))
      .catch((error) => log.error({ ...errorFields(error) }, "unconfirmed accounts round failed"));
    // The previous month's owner reports, once per owner, listing and month (decision 024).
    await sendMonthlyOwnerReports(runtime.db, new Date())
      .then((result) => result.queued > 0 && log.info({ queued: result.queued, period: result.period }, "owner reports queued"))
      .catch((error) => log.error({ ...errorFields(error) }, "owner reports round failed"));
    // 'Avise-me' (decision 025): unconfirmed alerts after 7 days and old links go; each confirmed
    // alert's digest at most once a day (its claim makes a second round or process a no-op).
    await pruneAlerts(runtime.db)
      .then((result) => result.expired > 0 && log.info(result, "unconfirmed alerts deleted"))
      .catch((error) => log.error({ ...errorFields(error) }, "alerts prune failed"));
    await runAlertDigests(runtime.db, runtime.env)
      .then((result) => result.queued > 0 && log.info(result, "alert digests queued"))
      .catch((error) => log.error({ ...errorFields(error) }, "alert digests round failed"));
    // Proposals past their validity day (the broker's calendar) become 'expirada' (decision 026).
    await expireProposals(runtime.db, brokerDay(new Date()))
      .then((expired) => expired > 0 && log.info({ expired }, "proposals expired"))
      .catch((error) => log.error({ ...errorFields(error) }, "proposal expiry failed"));
    // The visitors' day-before reminders (issue 25): one per visit and time, claimed on the visit.
    await visitorMailDeps(runtime.db, runtime.env.publicUrl)
      .then((deps) => queueVisitReminders(runtime.db, deps))
      .then((queued) => queued > 0 && log.info({ queued }, "visit reminders queued"))
      .catch((error) => log.error({ ...errorFields(error) }, "visit reminders round failed"));
  });
}

/**
 * Runs housekeepingRound a few minutes after start, then once an hour: a server restarted more
 * often than hourly (deploys, several servers taking turns) still runs it. Every part of a round
 * is idempotent (claims, dates kept in the database), so an extra round repeats nothing.
 */
function startHousekeeping(runtime: Pick<Runtime, "db" | "storage" | "database" | "env">): () => void {
  const log = logger("housekeeping");
  const run = () => void housekeepingRound(runtime).catch((error) => log.error({ ...errorFields(error) }, "housekeeping failed"));
  const first = setTimeout(run, 5 * 60 * 1000);
  first.unref();
  const timer = setInterval(run, 60 * 60 * 1000);
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}

/**
 * Daily: leads past the retention period are anonymised (features/privacy/retention.server.ts),
 * the promise /privacidade makes. Checked every hour; the last run is kept in the database, so a
 * restart or another process does not repeat the day's round, and on PostgreSQL the job lock
 * lets one process do it.
 */
function startRetentionJob(runtime: Pick<Runtime, "db" | "database">): () => void {
  const log = logger("retention");
  const run = () => {
    // A round may anonymise many leads at once: long work, on the long-work connections.
    void withJobLock(runtime.database, JOB_LOCKS.retention, () => runRetentionIfDue(runtime.database.longDb))
      .then((result) => {
        // Counts only: which leads is in the audit trail, and no personal value is ever logged.
        if (result) log.info({ leads: result.leads, months: result.months }, "retention round done");
      })
      .catch((error) => log.error({ ...errorFields(error) }, "retention round failed"));
  };
  // A first look a few minutes after start (not during it), then every hour.
  const first = setTimeout(run, 5 * 60 * 1000);
  first.unref();
  const timer = setInterval(run, 60 * 60 * 1000);
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}

/** Starts the runtime once; later calls get the same one. */
export function startRuntime(options: StartOptions = {}): Promise<Runtime> {
  state.__runtime ??= start(options).catch((error) => {
    state.__runtime = undefined;
    throw error;
  });
  return state.__runtime;
}

/** The running runtime (started with the process configuration on first use). */
export function getRuntime(): Promise<Runtime> {
  return startRuntime();
}

// Features reach the runtime through features/runtime/handle.server.ts, never by importing this
// module (decision 034): the root plugs its starter in as soon as it is loaded.
provideRuntime(getRuntime);

export async function getDb() {
  return (await getRuntime()).db;
}

/** Ends the open event streams, so an HTTP server waiting for its connections can close. */
export async function stopLiveUpdates(): Promise<void> {
  if (!state.__runtime) return;
  const runtime = await state.__runtime.catch(() => undefined);
  await runtime?.live.stop();
}

/** Closes the database (and releases the embedded database's lock). Safe to call twice. */
export function stopRuntime(): Promise<void> {
  const current = state.__runtime;
  if (!current) return Promise.resolve();
  state.__runtimeStopping ??= (async () => {
    try {
      const runtime = await current;
      runtime.stopHousekeeping();
      // Property views counted in memory (issue 12) are written while the database is still open.
      await stopPropertyViews(runtime.db);
      await runtime.backups.stop();
      await runtime.mail.stop();
      await runtime.push.stop();
      await runtime.live.stop();
      await runtime.database.close();
    } catch {
      // A runtime that never started has nothing to close.
    } finally {
      state.__runtime = undefined;
      state.__runtimeStopping = undefined;
    }
  })();
  return state.__runtimeStopping;
}
