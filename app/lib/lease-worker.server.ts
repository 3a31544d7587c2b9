/**
 * The loop the outbox workers share (mail, decision 011; push, decision 030): a round claims due
 * rows with a lease, sends each outside any transaction and records the outcome. This module runs
 * the rounds — at start, every `pollMs` (other processes' rows, retries that came due, a database
 * back) and shortly after `wake()` — one at a time per process: a wake during a round runs another
 * one after it.
 */

/**
 * After the database failed, how long a worker leaves alone the rows whose lease ran out: their
 * sender may have handed them on (to the SMTP server, the push service) and be retrying to record
 * it (it retries every 2 s at most). Taking them at once, as soon as the database is back, would
 * send them twice.
 */
export const RECOVERY_GRACE_MS = 15_000;

/** What a round is given. */
export type LeaseRound = {
  /** Aborted by stop(): finish the row in flight, claim no other. */
  signal: AbortSignal;
  /** Take rows whose lease ran out (false for RECOVERY_GRACE_MS after a database error). */
  takeExpiredLeases: boolean;
  /** Tell of every database error, so the worker holds back after it. */
  onDatabaseError: () => void;
};

export type LeaseWorker = {
  /** Run a round soon: call after the transaction that queued a row has committed. */
  wake(): void;
  /** Stops polling and waits (at most `stopWaitMs`) for a round in progress, before the database closes. */
  stop(): Promise<void>;
};

export function startLeaseWorker(options: {
  round: (round: LeaseRound) => Promise<unknown>;
  pollMs: number;
  stopWaitMs: number;
  /** A round that throws failed on the database (send failures are outcomes): log it here. */
  onRoundError: (error: unknown) => void;
}): LeaseWorker {
  let stopped = false;
  const stopping = new AbortController();
  let running: Promise<void> | undefined;
  let again = false;
  let soon: ReturnType<typeof setTimeout> | undefined;
  let lastDatabaseError = 0;
  const onDatabaseError = () => {
    lastDatabaseError = Date.now();
  };

  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = options
      .round({ signal: stopping.signal, takeExpiredLeases: Date.now() - lastDatabaseError > RECOVERY_GRACE_MS, onDatabaseError })
      .then(() => undefined)
      .catch((error) => {
        onDatabaseError();
        options.onRoundError(error);
      })
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          run();
        }
      });
  };

  const timer = setInterval(run, options.pollMs);
  timer.unref();
  soon = setTimeout(run, 0);
  soon.unref();

  return {
    wake() {
      if (stopped) return;
      clearTimeout(soon);
      // A moment's delay folds several enqueues into one round and lets a caller's commit land.
      soon = setTimeout(run, 50);
      soon.unref();
    },
    async stop() {
      stopped = true;
      stopping.abort();
      clearInterval(timer);
      clearTimeout(soon);
      // The round ends after the row in flight. A send slower than this wait may be cut by the
      // database closing: its row stays claimed and is sent again when the lease runs out.
      if (running) {
        let timeout: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([running, new Promise((resolve) => (timeout = setTimeout(resolve, options.stopWaitMs)))]);
        clearTimeout(timeout);
      }
    },
  };
}
