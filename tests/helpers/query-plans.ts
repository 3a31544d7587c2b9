import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type { Database } from "~/db/client.server";
import * as schema from "~/db/schema";
import type { TestRuntime } from "./runtime";

/**
 * For the query-plan tests: run the product's own query functions against a database handle that
 * records each statement drizzle sends, then ask PostgreSQL (embedded or server) how it plans them.
 */

export type Recorded = { sql: string; params: unknown[] };

export type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: PlanNode[] };

/** The test's database, with every statement (and its parameters) pushed onto `recorded`. */
export function recordingDb(test: TestRuntime, recorded: Recorded[]): Database {
  const logger = { logQuery: (sql: string, params: unknown[]) => recorded.push({ sql, params }) };
  return (
    test.kind === "pglite"
      ? drizzlePglite(test.runtime.database.pglite!, { schema, logger })
      : drizzleNodePg(test.runtime.database.pool!, { schema, logger })
  ) as unknown as Database;
}

/** Every node of the statement's plan (`explain (format json)`), the root first. */
export async function planNodes(test: TestRuntime, { sql, params }: Recorded): Promise<PlanNode[]> {
  const text = `explain (format json) ${sql}`;
  const result =
    test.kind === "pglite"
      ? await test.runtime.database.pglite!.query<Record<string, unknown>>(text, params as never[])
      : await test.runtime.database.pool!.query(text, params as never[]);
  const raw = result.rows[0]["QUERY PLAN"];
  const plan = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
  const all: PlanNode[] = [];
  const walk = (node: PlanNode) => {
    all.push(node);
    node.Plans?.forEach(walk);
  };
  walk(plan[0].Plan);
  return all;
}
