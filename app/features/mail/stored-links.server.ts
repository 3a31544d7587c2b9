import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { LINK_TOKEN_PLACEHOLDER, type SecretSource, sealLinkToken } from "./sealed-link.server";

/**
 * Account e-mails stored before their links were sealed (issue 21) hold the raw token in their
 * bodies, sent or not. At every start (cheap: it finds nothing once done) each such body gets
 * the placeholder instead; a message still waiting keeps its link working through a sealed
 * token, the others simply lose the token. Only our own account links are touched: a visitor's
 * message quoting some other `?token=` URL stays as it was.
 */

const ACCOUNT_KINDS = ["verify-email", "signup-existing", "reset-password", "password-reset", "invite", "invitation"];
const RAW_LINK = /(\/auth\/(?:verificar|redefinir|convite)\?token=)([A-Za-z0-9_%-]{16,})/g;
const RAW_LINK_SQL = "/auth/(verificar|redefinir|convite)[?]token=[A-Za-z0-9_%-]{16}";

export async function sealStoredLinks(db: Database, env: SecretSource): Promise<number> {
  const rows = await db
    .select({ id: outbox.id, status: outbox.status, text: outbox.text_body, html: outbox.html_body })
    .from(outbox)
    .where(
      and(
        inArray(outbox.kind, ACCOUNT_KINDS),
        isNull(outbox.link_token),
        sql`(${outbox.text_body} ~ ${RAW_LINK_SQL} or ${outbox.html_body} ~ ${RAW_LINK_SQL})`,
      ),
    );
  for (const row of rows) {
    const tokens = new Set([...`${row.text}\n${row.html ?? ""}`.matchAll(RAW_LINK)].map((match) => decodeURIComponent(match[2])));
    const scrub = (body: string) => body.replace(RAW_LINK, (_whole, prefix: string) => `${prefix}${LINK_TOKEN_PLACEHOLDER}`);
    // One link per account e-mail; anything else is not ours to re-send.
    const keep = row.status === "pending" && tokens.size === 1;
    await db
      .update(outbox)
      .set({
        text_body: scrub(row.text),
        html_body: row.html === null ? null : scrub(row.html),
        link_token: keep ? sealLinkToken(env, [...tokens][0]) : null,
      })
      .where(and(eq(outbox.id, row.id), isNull(outbox.link_token)));
  }
  return rows.length;
}
