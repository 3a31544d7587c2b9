import { startServerProcess } from "../tests/helpers/server-process";
import { TEMPLATE_DIR } from "../tests/e2e/template";

/** The production server on a fresh copy of the seeded template (or on DATABASE_URL when given). */
export function startServer(port: number, env: Record<string, string> = {}) {
  return startServerProcess({ port, env, templateDir: env.DATABASE_URL ? undefined : TEMPLATE_DIR });
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;
