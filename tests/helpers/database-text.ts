import { sql } from "drizzle-orm";
import { type Database, queryRows } from "~/db/client.server";

/**
 * Every value of every text-like column (text, varchar, json, jsonb, arrays) of every table of
 * the public schema, as read from information_schema, so that a table or column added later is
 * searched too. For "no copy left behind" and "no usable token in a copy" checks.
 */
export async function everyTextValue(db: Database): Promise<{ table: string; column: string; value: string }[]> {
  const columns = await queryRows<{ table_name: string; column_name: string }>(
    db,
    sql`select c.table_name, c.column_name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
          and (c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED'))
        order by c.table_name, c.column_name`,
  );
  const values: { table: string; column: string; value: string }[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
    const rows = await queryRows<{ value: string | null }>(
      db,
      sql.raw(`select ${quoted(column)}::text as value from ${quoted(table)} where ${quoted(column)} is not null`),
    );
    for (const row of rows) if (row.value !== null) values.push({ table, column, value: row.value });
  }
  return values;
}

/**
 * What could be a link's token in some text: every run of 16 or more URL-safe characters, and
 * every `token=` parameter, raw and decoded.
 */
export function tokenCandidates(text: string): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(/[A-Za-z0-9_-]{16,}/g)) found.add(match[0]);
  for (const match of text.matchAll(/token=([^&\s"'<>\\]+)/g)) {
    found.add(match[1]);
    try {
      found.add(decodeURIComponent(match[1]));
    } catch {
      // not percent-encoded after all
    }
  }
  return found;
}
