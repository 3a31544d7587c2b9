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
  /** The lead the message is about, so the lead's timeline lists it. */
  leadId?: string | null;
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
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html ?? null,
      lead_id: mail.leadId ?? null,
    })
    .returning({ id: outbox.id });
  return row.id;
}
