import { databaseHealth } from "~/db/client.server";
import { getRuntime } from "~/runtime.server";

/**
 * GET /healthz — for the load balancer or the process supervisor: 200 {"status":"ok"} while the
 * database answers within two seconds and can write (and, embedded, has room on its disk), 503
 * {"status":"unavailable","reason":…} otherwise. No session, nothing cached.
 */
export async function loader() {
  const health = await getRuntime().then(
    (runtime) => databaseHealth(runtime.database, { dataDir: runtime.env.dataDir, timeoutMs: 2000 }),
    () => ({ ok: false as const, reason: "no-answer" as const }),
  );
  return Response.json(health.ok ? { status: "ok" } : { status: "unavailable", reason: health.reason }, {
    status: health.ok ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}
