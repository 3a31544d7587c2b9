import { and, count, desc, eq, sql } from "drizzle-orm";
import * as z from "zod/mini";
import type { Database } from "~/db/client.server";
import { leads, properties } from "~/db/schema";
import { LEAD_STATUSES, type LeadStatus } from "~/db/values";
import { containsPattern } from "~/lib/pagination";
import { choice } from "~/lib/validation";
import { excerpt } from "./excerpt";
import { lossFields, requireLossReason } from "./loss";

/**
 * The pipeline board's reads (staff only: the route checks the role first). One column per
 * status, each showing its newest cards and how many there are in all: a board with thousands
 * of closed leads still loads a few hundred cards, and 'Ver todos' leads to the filtered table.
 */

/** Cards per column; the rest are counted and reached through the table. */
export const BOARD_COLUMN_LIMIT = 50;

/** How much of a lead's message a card carries (the whole text can be 1,000 characters). */
export const BOARD_EXCERPT_LENGTH = 140;

export type BoardLead = {
  id: string;
  full_name: string;
  phone: string;
  status: LeadStatus;
  created_at: string;
  /** The start of the message, at most BOARD_EXCERPT_LENGTH characters (then "…"); null when none. */
  excerpt: string | null;
  property_codigo: string | null;
  /** For the card's WhatsApp message ({imovel}, {link}). */
  property_id: string | null;
  property_title: string | null;
  /** Issue 24: why a lost lead was lost (the card shows it in the 'Perdido' column). */
  lost_reason: string | null;
};

export type BoardColumn = { status: LeadStatus; total: number; leads: BoardLead[] };

/**
 * The same condition as the table's search (crm.server.ts): the expression leads_search_idx
 * indexes, so a search on the board uses the index as well.
 */
function searchCondition(search: string) {
  if (!search) return undefined;
  return sql`lead_search_text(${leads.full_name}, ${leads.email}, ${leads.phone}) like immutable_unaccent(lower(${containsPattern(search)})) escape '\\'`;
}

/**
 * Every column of the board, newest first in each (leads_status_idx: status, created_at desc,
 * id desc), optionally narrowed by the search box.
 */
export async function listLeadBoard(
  db: Database,
  { search }: { search: string },
  limit = BOARD_COLUMN_LIMIT,
): Promise<BoardColumn[]> {
  const where = searchCondition(search);
  const totals = await db.select({ status: leads.status, total: count() }).from(leads).where(where).groupBy(leads.status);
  const columns = await Promise.all(
    LEAD_STATUSES.map(async (status) => {
      const total = totals.find((row) => row.status === status)?.total ?? 0;
      if (total === 0) return { status, total, leads: [] };
      const rows = await db
        .select({
          id: leads.id,
          full_name: leads.full_name,
          phone: leads.phone,
          status: leads.status,
          created_at: leads.created_at,
          // A little more than the excerpt, so excerpt() knows whether the text goes on.
          notes: sql<string | null>`left(${leads.notes}, ${BOARD_EXCERPT_LENGTH + 40})`,
          property_codigo: properties.codigo,
          property_id: properties.id,
          property_title: properties.title,
          lost_reason: leads.lost_reason,
        })
        .from(leads)
        .leftJoin(properties, eq(properties.id, leads.property_id))
        .where(and(eq(leads.status, status), where))
        .orderBy(desc(leads.created_at), desc(leads.id))
        .limit(limit);
      return {
        status,
        total,
        leads: rows.map((row) => ({
          id: row.id,
          full_name: row.full_name,
          phone: row.phone,
          status: row.status,
          created_at: new Date(row.created_at).toISOString(),
          excerpt: excerpt(row.notes, BOARD_EXCERPT_LENGTH),
          property_codigo: row.property_codigo,
          property_id: row.property_id,
          property_title: row.property_title,
          lost_reason: row.lost_reason,
        })),
      };
    }),
  );
  return columns;
}

export const BOARD_MESSAGES = {
  invalidStatus: "Status inválido",
  notFound: "Lead não encontrado. Ele pode ter sido excluído.",
  moveFailed: "Erro ao mover o lead. Tente novamente.",
  moved: (label: string) => `Lead movido para ${label}`,
} as const;

/** The board's move (intent=status): which lead, to which column, and why when it is lost. */
export const statusMoveSchema = z.object(
  {
    // Any text: an id that is not a lead's is answered 404 by changeLeadStatus, not refused here.
    id: z.string({ error: BOARD_MESSAGES.notFound }).check(z.maxLength(100, BOARD_MESSAGES.notFound)),
    status: choice(LEAD_STATUSES, BOARD_MESSAGES.invalidStatus),
    ...lossFields,
  },
  { error: BOARD_MESSAGES.invalidStatus },
).check(requireLossReason);
