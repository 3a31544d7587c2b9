import { and, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";

/** The database or a transaction on it: enqueue inside the transaction that writes the mail's cause. */
export type DbOrTx = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

export type OutgoingMail = {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where replies go (the new-lead alert: the lead's e-mail); a checked single address. */
  replyTo?: string | null;
  /**
   * The link's token sealed by sealLinkToken (account e-mails): the bodies hold
   * LINK_TOKEN_PLACEHOLDER in its place, and the sender puts it back just before sending.
   */
  sealedLinkToken?: string | null;
  /** The lead the message is about: the lead's timeline lists it, and it is deleted with the lead. */
  leadId?: string | null;
  /** 'Avise-me' digests: the one-click unsubscribe address (with LINK_TOKEN_PLACEHOLDER). */
  listUnsubscribe?: string | null;
  /** A visit's calendar file (features/visits/visitor-mail.server.ts), attached as visita.ics. */
  icsAttachment?: string | null;
};

/**
 * Inserts one message into `outbox`; pass the transaction that writes its cause, so the mail
 * exists exactly when its cause does (a rollback leaves nothing to send). The worker delivers it
 * later, outside any transaction. Returns the row id.
 */
export async function enqueueMail(db: DbOrTx, mail: OutgoingMail): Promise<string> {
  const [row] = await db
    .insert(outbox)
    .values({
      kind: mail.kind,
      to_address: mail.to,
      reply_to: mail.replyTo ?? null,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html ?? null,
      link_token: mail.sealedLinkToken ?? null,
      lead_id: mail.leadId ?? null,
      list_unsubscribe: mail.listUnsubscribe ?? null,
      ics_attachment: mail.icsAttachment ?? null,
    })
    .returning({ id: outbox.id });
  return row.id;
}

/**
 * Every account e-mail to an address (confirmation, new password, invitation — not alerts about
 * leads, which belong to their lead): for deleting a user, in the transaction that deletes them.
 */
export async function deleteAccountMailTo(db: DbOrTx, email: string): Promise<number> {
  const rows = await db
    .delete(outbox)
    .where(and(isNull(outbox.lead_id), sql`lower(${outbox.to_address}) = ${email.trim().toLowerCase()}`))
    .returning({ id: outbox.id });
  return rows.length;
}
