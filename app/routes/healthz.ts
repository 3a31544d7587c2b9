import { databaseAnswers } from "~/db/client.server";
import { getRuntime } from "~/runtime.server";

/**
 * GET /healthz — for the load balancer or the process supervisor: 200 {"status":"ok"} while the
 * database answers a trivial query within two seconds, 503 otherwise. No session, nothing cached.
 */
export async function loader() {
  const healthy = await getRuntime().then(
    (runtime) => databaseAnswers(runtime.database, 2000),
    () => false,
  );
  return Response.json(healthy ? { status: "ok" } : { status: "unavailable" }, {
    status: healthy ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}
