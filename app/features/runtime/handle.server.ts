import type { DatabaseHandle } from "~/db/client.server";
import type { Auth } from "~/features/auth/auth.server";
import type { BackupSchedule } from "~/features/backup/schedule.server";
import type { LiveHub } from "~/features/live/hub.server";
import type { MailWorker } from "~/features/mail/worker.server";
import type { MediaStorage } from "~/features/media/storage.server";
import type { PushWorker } from "~/features/push/worker.server";
import type { Env } from "~/lib/env.server";

/**
 * Where a feature reaches the process's runtime without importing the composition root
 * (decision 034). app/runtime.server.ts builds the runtime and plugs its starter in here when it
 * is loaded; features read it with getRuntime(). Only this module's type imports point back at
 * features: they are erased at build, so no module loads before another because of them.
 */

/**
 * Everything a request needs that lives as long as the process: configuration, the database,
 * auth and media storage. Started once (kept on globalThis so dev reloads reuse it), stopped on
 * SIGTERM/SIGINT by the server (server/main.ts) so the embedded database closes cleanly.
 */
export type Runtime = {
  env: Env;
  database: DatabaseHandle;
  db: DatabaseHandle["db"];
  auth: Auth;
  storage: MediaStorage;
  /** This process's live-update streams (features/live). */
  live: LiveHub;
  /** Stops the hourly housekeeping timer. */
  stopHousekeeping: () => void;
  /** Scheduled backups into DATA_DIR/backups (features/backup). */
  backups: BackupSchedule;
  /** Outgoing e-mail (features/mail): `wake()` after committing an enqueued message. */
  mail: MailWorker;
  /** Push alerts and scheduled reminders (features/push): `wake()` after committing a queued push. */
  push: PushWorker;
};

// On globalThis, like the runtime itself: a dev reload of this module keeps the starter.
const state = globalThis as unknown as { __runtimeStarter?: () => Promise<Runtime> };

/** Called once by the composition root (app/runtime.server.ts) when it is loaded. */
export function provideRuntime(start: () => Promise<Runtime>): void {
  state.__runtimeStarter = start;
}

/**
 * The running runtime (started with the process configuration on first use). Every entry point
 * (the server's build, the CLI, the tests' helpers) loads app/runtime.server.ts first, so the
 * starter is there by the time a loader, action or job asks.
 */
export function getRuntime(): Promise<Runtime> {
  const start = state.__runtimeStarter;
  if (!start) return Promise.reject(new Error("The runtime is not set up: import ~/runtime.server (the composition root) first."));
  return start();
}

/**
 * The runtime where the composition root is loaded (the server, the tests), else undefined: a
 * process that only opened a database (the CLI) reads through it and starts no runtime.
 */
export function loadedRuntime(): Promise<Runtime> | undefined {
  return state.__runtimeStarter ? getRuntime() : undefined;
}
