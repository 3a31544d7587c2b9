import pino from "pino";

/**
 * The process's one logger: JSON lines on stdout (pino), one object per event, so a newline in
 * anything we log is escaped and cannot forge a line. Nothing personal goes in: log ids, counts,
 * paths without query strings, and errors through `errorFields` — never a form's values, a
 * query's parameters, an e-mail address or a client's address.
 */
const state = globalThis as unknown as { __logger?: pino.Logger };

export function getLogger(): pino.Logger {
  state.__logger ??= pino({
    level: process.env.LOG_LEVEL || (process.env.NODE_ENV === "test" ? "warn" : "info"),
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
  return state.__logger;
}

/** A child logger for one part of the app: `logger("leads").error(...)`. */
export function logger(component: string): pino.Logger {
  return getLogger().child({ component });
}

type ErrorLike = {
  name?: string;
  message?: string;
  code?: unknown;
  constraint?: unknown;
  stack?: string;
  cause?: unknown;
};

/**
 * What may be logged of an error. Database errors carry the failed query's parameters (drizzle's
 * "params: Maria,…") and PostgreSQL quotes offending values ('invalid input syntax: "…"'), so
 * only the name, the SQLSTATE code, the constraint and the message with quoted parts and
 * parameters removed are kept, plus the stack's frames (code locations, no data).
 */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!error || typeof error !== "object") return { error: typeof error };
  // drizzle wraps the driver's error: the cause has the code and PostgreSQL's own message.
  const outer = error as ErrorLike;
  const inner = outer.cause && typeof outer.cause === "object" ? (outer.cause as ErrorLike) : undefined;
  const source = inner?.code ? inner : outer;
  const message = redact(String(source.message ?? ""));
  const frames = (outer.stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 8)
    .map((line) => line.trim());
  return {
    err: {
      name: source.name ?? outer.name,
      code: typeof source.code === "string" ? source.code : undefined,
      constraint: typeof source.constraint === "string" ? source.constraint : undefined,
      message,
      stack: frames,
    },
  };
}

/** Cuts parameters and anything quoted out of a message; keeps it to one short line. */
export function redact(message: string): string {
  const firstPart = message.split(/\nparams:|\bparams:/)[0];
  return firstPart
    .replace(/"[^"]*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    .replace(/\s+/g, " ")
    .slice(0, 300)
    .trim();
}
