import { desc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { lead_events, lead_matches_sent, outbox, properties, visits } from "~/db/schema";
import type { LeadStatus } from "~/db/values";
import { type NegotiationTimelineItem, negotiationTimeline } from "~/features/deals/timeline.server";

/**
 * A lead's timeline, newest first: its own events (creation and status changes written by the
 * database trigger, staff notes, next-contact changes), the visits scheduled with it and the
 * e-mails sent about it. Each source is read through its lead index, capped, then merged.
 */

const PER_SOURCE = 200;

type Base = { id: string; at: string; actor: string | null };

export type TimelineItem =
  | (Base & { kind: "created"; status: LeadStatus | null; lostReason: string | null; lostNote: string | null })
  // A move to 'perdido' carries its reason and note (issue 24).
  | (Base & { kind: "status"; from: LeadStatus | null; to: LeadStatus | null; lostReason: string | null; lostNote: string | null })
  | (Base & { kind: "note"; body: string })
  | (Base & { kind: "next_contact"; nextContactAt: string | null })
  | (Base & {
      kind: "visit";
      scheduledAt: string;
      status: "agendada" | "realizada" | "cancelada";
      notes: string | null;
      property: { codigo: string; title: string } | null;
    })
  | (Base & { kind: "email"; subject: string; status: "pending" | "sent" | "failed"; to: string })
  // Issue 23: a listing sent to the lead (features/matching), by WhatsApp or e-mail.
  | (Base & { kind: "match"; channel: "whatsapp" | "email"; property: { codigo: string; title: string } })
  // Issue 24: offers, decisions and deals (features/deals/timeline.server.ts).
  | NegotiationTimelineItem;

const iso = (value: Date | string) => new Date(value).toISOString();

export async function loadLeadTimeline(db: Database, leadId: string): Promise<TimelineItem[]> {
  const [events, visitRows, mails, matches, negotiation] = await Promise.all([
    db.select().from(lead_events).where(eq(lead_events.lead_id, leadId)).orderBy(desc(lead_events.at), desc(lead_events.id)).limit(PER_SOURCE),
    db
      .select({ visit: visits, codigo: properties.codigo, title: properties.title })
      .from(visits)
      .leftJoin(properties, eq(properties.id, visits.property_id))
      .where(eq(visits.lead_id, leadId))
      .orderBy(desc(visits.scheduled_at))
      .limit(PER_SOURCE),
    db
      .select({
        id: outbox.id,
        subject: outbox.subject,
        status: outbox.status,
        to: outbox.to_address,
        created_at: outbox.created_at,
        sent_at: outbox.sent_at,
      })
      .from(outbox)
      .where(eq(outbox.lead_id, leadId))
      .orderBy(desc(outbox.created_at))
      .limit(PER_SOURCE),
    db
      .select({ id: lead_matches_sent.id, at: lead_matches_sent.sent_at, actor: lead_matches_sent.actor_name, channel: lead_matches_sent.channel, codigo: properties.codigo, title: properties.title })
      .from(lead_matches_sent)
      .innerJoin(properties, eq(properties.id, lead_matches_sent.property_id))
      .where(eq(lead_matches_sent.lead_id, leadId))
      .orderBy(desc(lead_matches_sent.sent_at))
      .limit(PER_SOURCE),
    negotiationTimeline(db, leadId),
  ]);

  const items: TimelineItem[] = [];
  for (const event of events) {
    const base = { id: event.id, at: iso(event.at), actor: event.actor_name };
    const status = (value: string | null) => value as LeadStatus | null;
    const loss = { lostReason: event.lost_reason, lostNote: event.to_status === "perdido" ? event.body : null };
    if (event.kind === "created") items.push({ ...base, kind: "created", status: status(event.to_status), ...loss });
    else if (event.kind === "status") items.push({ ...base, kind: "status", from: status(event.from_status), to: status(event.to_status), ...loss });
    else if (event.kind === "note") items.push({ ...base, kind: "note", body: event.body ?? "" });
    else items.push({ ...base, kind: "next_contact", nextContactAt: event.next_contact_at ? iso(event.next_contact_at) : null });
  }
  for (const { visit, codigo, title } of visitRows) {
    items.push({
      kind: "visit",
      id: visit.id,
      // When it was scheduled: a visit is part of the story from then on, with its date shown.
      at: iso(visit.created_at),
      actor: visit.created_by_name,
      scheduledAt: iso(visit.scheduled_at),
      status: visit.status,
      notes: visit.notes,
      property: codigo && title ? { codigo, title } : null,
    });
  }
  for (const mail of mails) {
    items.push({ kind: "email", id: mail.id, at: iso(mail.sent_at ?? mail.created_at), actor: null, subject: mail.subject, status: mail.status, to: mail.to });
  }
  for (const match of matches) {
    items.push({ kind: "match", id: match.id, at: iso(match.at), actor: match.actor, channel: match.channel, property: { codigo: match.codigo, title: match.title } });
  }
  items.push(...negotiation);
  // Newest first; at the same instant (a lead and its alert), the later kind in this order first.
  const order = { created: 0, status: 1, note: 2, next_contact: 3, visit: 4, email: 5, match: 6, negotiation: 7 } as const;
  return items.sort((a, b) => (a.at === b.at ? order[b.kind] - order[a.kind] : a.at < b.at ? 1 : -1));
}
