import { sql } from "drizzle-orm";
import { push_events } from "~/db/schema";
import type { DbOrTx } from "~/features/mail/outbox.server";
import { leadPath } from "~/features/leads/contact-links";
import { firstName, PUSH_KINDS, type PushKind } from "./kinds";

export { firstName };

/**
 * Pushes waiting to be sent: one `push_messages` row per (event, device) of every staff member
 * who wants that kind of alert, written in the transaction of the cause. A lock screen is public,
 * so a push names nothing about a person but a lead's first name.
 */

export type PushEvent = {
  /** Unique per event ('lead:<id>', 'next-contact:<lead>:<epoch>', …): never two pushes to a device. */
  key: string;
  kind: PushKind;
  title: string;
  body: string;
  /** A path on this site, opened when the notification is tapped. */
  url: string;
  leadId?: string | null;
};

const ALL_KINDS = sql.raw(`array[${PUSH_KINDS.map((kind) => `'${kind}'`).join(", ")}]::text[]`);

/**
 * One row per device of each staff member (a role today, not just once) who has not turned this
 * kind off. Returns how many pushes were queued.
 */
export async function enqueuePush(db: DbOrTx, event: PushEvent): Promise<number> {
  const result = await db.execute(sql`
    insert into push_messages (event_key, subscription_id, kind, title, body, url, lead_id)
    select ${event.key}, s.id, ${event.kind}, ${event.title}, ${event.body}, ${event.url}, ${event.leadId ?? null}
    from push_subscriptions s
    left join push_preferences p on p.user_id = s.user_id
    where exists (select 1 from user_roles r where r.user_id = s.user_id and r.role in ('admin', 'corretor'))
      and coalesce(p.kinds, ${ALL_KINDS}) @> array[${event.kind}]::text[]
    on conflict (event_key, subscription_id) do nothing
    returning id`);
  const rows = (result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[]);
  return rows.length;
}

/**
 * Marks an event as handled; false when some round or process already did (then nothing is
 * queued again). The scheduled jobs call it first, in the transaction that queues the alerts.
 */
export async function claimEvent(db: DbOrTx, key: string): Promise<boolean> {
  const rows = await db.insert(push_events).values({ key }).onConflictDoNothing().returning({ key: push_events.key });
  return rows.length > 0;
}

const SOURCE_TEXT = { contato: "pelo formulário de contato", visita: "pedindo uma visita", portal: "por um portal" } as const;

/** The new-lead push (called where the new-lead e-mail alert is queued: site forms, portals). */
export async function enqueueNewLeadPush(db: DbOrTx, lead: { id: string; fullName: string; source: keyof typeof SOURCE_TEXT }): Promise<number> {
  if (!(await claimEvent(db, `lead:${lead.id}`))) return 0;
  return enqueuePush(db, {
    key: `lead:${lead.id}`,
    kind: "novo_lead",
    title: "Novo lead",
    body: `${firstName(lead.fullName)} chegou ${SOURCE_TEXT[lead.source]}.`,
    url: leadPath(lead.id),
    leadId: lead.id,
  });
}
