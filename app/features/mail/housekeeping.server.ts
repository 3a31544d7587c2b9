import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { LINK_UNAVAILABLE } from "./sealed-link.server";

/**
 * The hourly clean-up of the outbox (runtime.server.ts). Account e-mails are kept a month after
 * they went out or gave up (CRM → E-mails, support questions), then deleted; a sealed link token
 * is forgotten once every link has expired (invitations live longest, 72 h), and a message still
 * waiting for it is given up: its link would open nothing. New-lead alerts stay with their lead —
 * its timeline lists them — and go when the lead is deleted or anonymised.
 */

export const ACCOUNT_MAIL_KEEP_DAYS = 30;
/** The longest life of a link (invitations), with an hour to spare. */
const LINK_LIFETIME_HOURS = 72 + 1;

export async function pruneOutbox(db: Database): Promise<void> {
  await db.execute(sql`
    delete from outbox
    where lead_id is null and status in ('sent', 'failed')
      and created_at < now() - make_interval(days => ${ACCOUNT_MAIL_KEEP_DAYS})`);
  await db.execute(sql`
    update outbox set
      link_token = null,
      last_error = case when status = 'pending' then ${LINK_UNAVAILABLE} else last_error end,
      status = case when status = 'pending' then 'failed' else status end
    where link_token is not null
      and created_at < now() - make_interval(hours => ${LINK_LIFETIME_HOURS})
      and (locked_until is null or locked_until < now())`);
}
