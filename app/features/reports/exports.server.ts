import { and, count, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, properties } from "~/db/schema";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { parseStatusFilter } from "~/features/leads/crm.server";
import { INTEREST_LABELS, LEAD_STATUS_LABELS, originLabel } from "~/features/leads/labels";
import { FEATURES } from "~/features/properties/features";
import { FURNISHED_LABELS, PURPOSE_LABELS, RENTAL_GUARANTEE_LABELS, STATUS_LABELS, TYPE_LABELS } from "~/features/properties/labels";
import { containsPattern, parseTableQuery } from "~/lib/pagination";
import { type Period, parsePeriod, rangeInstants } from "./period";
import { loadReport } from "./reports.server";
import { EXPORT_FORMATS, type ExportFormat, MAX_EXPORT_ROWS, tableDownload } from "./spreadsheet.server";
import { streamedDownload } from "./stream-download.server";
import { type Cell, type Column, REPORT_KEYS, type ReportKey, type ReportTable, reportTables } from "./tables";

/**
 * The downloads of issue 12: each report table, the leads list and the properties list, with the
 * filters and period of the page they come from. Bad parameters get a 400 with a Portuguese
 * message. The leads list is personal data: its route lets only admins in, and each download
 * is audited (who, when, which filters, how many rows; never a lead's data).
 */

export const EXPORT_MESSAGES = {
  format: "Formato inválido: use csv ou xlsx.",
  report: "Relatório desconhecido.",
  tooMany: `Mais de ${MAX_EXPORT_ROWS} linhas: filtre a lista para exportar.`,
} as const;

/** A refusal as plain text: the link was a download, so there is no page to show it in. */
const badRequest = (message: string) => new Response(message, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

function parseFormat(params: URLSearchParams): ExportFormat | null {
  const value = params.get("formato") ?? "";
  return (EXPORT_FORMATS as readonly string[]).includes(value) ? (value as ExportFormat) : null;
}

/** A period when the URL names one (lists export everything otherwise); a message when it is malformed. */
function optionalPeriod(params: URLSearchParams): { period: Period | null } | { message: string } {
  if (!params.get("periodo")) return { period: null };
  const parsed = parsePeriod(params);
  return parsed.ok ? { period: parsed.period } : { message: parsed.message };
}

const fileDay = (period: Period) => `${period.from}-a-${period.to}`;

/**
 * /crm/relatorios/exportar?relatorio=…&formato=csv|xlsx&periodo=… — 'negocios' names each deal's
 * client, so its download is audited as the leads list's is (issue 24; never a name or amount).
 */
export async function reportExport(db: Database, url: URL, options: { commissions?: boolean; actor?: AuditActor } = {}): Promise<Response> {
  const format = parseFormat(url.searchParams);
  if (!format) throw badRequest(EXPORT_MESSAGES.format);
  const key = url.searchParams.get("relatorio") ?? "";
  if (!(REPORT_KEYS as readonly string[]).includes(key)) throw badRequest(EXPORT_MESSAGES.report);
  const parsed = parsePeriod(url.searchParams);
  if (!parsed.ok) throw badRequest(parsed.message);
  const table = reportTables(await loadReport(db, parsed.period, { commissions: options.commissions }))[key as ReportKey];
  if (key === "negocios") {
    await recordAudit(db, {
      actor: options.actor ?? null,
      action: "deal.export",
      entity: "deal",
      details: { format, rows: table.rows.length, commissions: options.commissions ?? false, period: { from: parsed.period.from, to: parsed.period.to } },
    });
  }
  return tableDownload(table, format, `relatorio-${key}-${fileDay(parsed.period)}`);
}

/** Leads read per query of a leads download: the server holds one batch at a time. */
export const LEADS_EXPORT_BATCH = 2_000;

const LEAD_EXPORT_COLUMNS: Column[] = [
  { header: "Nome", kind: "text" },
  { header: "Telefone", kind: "text" },
  { header: "E-mail", kind: "text" },
  { header: "Interesse", kind: "text" },
  { header: "Tipo de imóvel", kind: "text" },
  { header: "Origem", kind: "text" },
  { header: "Situação", kind: "text" },
  { header: "Imóvel (código)", kind: "text" },
  { header: "Observações", kind: "text" },
  { header: "Recebido em", kind: "datetime" },
  // Issue 24: why a lost lead was lost.
  { header: "Motivo da perda", kind: "text" },
  { header: "Observação da perda", kind: "text" },
];

/**
 * The leads list as the CRM filters it (status, search) and, optionally, a period of creation —
 * every matching lead, however many (issue 26: ten years of them): streamed, newest first, a
 * batch at a time, each batch starting after the last row of the one before (created_at, id:
 * leads_created_at_idx or leads_status_idx), so no batch re-reads what came before.
 */
export async function leadsExport(db: Database, actor: AuditActor, url: URL): Promise<Response> {
  const format = parseFormat(url.searchParams);
  if (!format) throw badRequest(EXPORT_MESSAGES.format);
  const optional = optionalPeriod(url.searchParams);
  if ("message" in optional) throw badRequest(optional.message);
  const { search } = parseTableQuery(url.searchParams);
  const status = parseStatusFilter(url.searchParams.get("status"));
  const instants = optional.period ? rangeInstants(optional.period) : null;
  const where = and(
    status ? eq(leads.status, status) : undefined,
    // The expression leads_search_idx indexes, as the leads list searches (features/leads/crm.server.ts).
    search
      ? sql`lead_search_text(${leads.full_name}, ${leads.email}, ${leads.phone}) like immutable_unaccent(lower(${containsPattern(search)})) escape '\\'`
      : undefined,
    instants ? gte(leads.created_at, instants.start) : undefined,
    instants ? lt(leads.created_at, instants.end) : undefined,
  );
  const [{ rows }] = await db.select({ rows: count() }).from(leads).where(where);
  // Recorded when the download starts: who, which filters, how many rows (never a lead's data).
  await recordAudit(db, {
    actor,
    action: "lead.export",
    entity: "lead",
    details: { format, rows, status, search: search !== "", period: optional.period ? { from: optional.period.from, to: optional.period.to } : null },
  });
  const name = optional.period ? `leads-${fileDay(optional.period)}` : "leads";
  return streamedDownload({ title: "Leads", columns: LEAD_EXPORT_COLUMNS }, leadBatches(db, where), format, name);
}

function readLeadBatch(db: Database, where: SQL | undefined, after: { at: string; id: string } | null) {
  return db
    .select({ lead: leads, codigo: properties.codigo, cursor: sql<string>`${leads.created_at}::text` })
    .from(leads)
    .leftJoin(properties, eq(properties.id, leads.property_id))
    // Spelled out rather than as a row comparison: the bound on created_at alone is what lets the
    // planner walk leads_created_at_idx (or leads_status_idx) from the cursor, in order.
    .where(
      and(
        where,
        after
          ? sql`${leads.created_at} <= ${after.at}::timestamptz and (${leads.created_at} < ${after.at}::timestamptz or ${leads.id} < ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(leads.created_at), desc(leads.id))
    .limit(LEADS_EXPORT_BATCH);
}

async function* leadBatches(db: Database, where: SQL | undefined): AsyncGenerator<Cell[][]> {
  // The cursor keeps created_at as PostgreSQL's text: a JS Date would drop its microseconds.
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const found = await readLeadBatch(db, where, after);
    if (found.length === 0) return;
    yield found.map(({ lead, codigo }) => [
      lead.full_name,
      lead.phone,
      lead.email,
      INTEREST_LABELS[lead.interest_type],
      lead.property_type ? TYPE_LABELS[lead.property_type] : null,
      originLabel(lead),
      LEAD_STATUS_LABELS[lead.status],
      codigo,
      lead.notes,
      new Date(lead.created_at).toISOString(),
      lead.lost_reason,
      lead.lost_note,
    ]);
    if (found.length < LEADS_EXPORT_BATCH) return;
    const last = found[found.length - 1];
    after = { at: last.cursor, id: last.lead.id };
  }
}

/** A yes/no the broker may leave unsaid: empty when not said. */
const yesNo = (value: boolean | null) => (value === null ? null : value ? "Sim" : "Não");

/**
 * The properties list as the CRM searches it. The partner broker's name is a person's name:
 * only an admin's download carries it.
 */
export async function propertiesExport(db: Database, url: URL, options: { includePartner: boolean }): Promise<Response> {
  const format = parseFormat(url.searchParams);
  if (!format) throw badRequest(EXPORT_MESSAGES.format);
  const optional = optionalPeriod(url.searchParams);
  if ("message" in optional) throw badRequest(optional.message);
  const { search } = parseTableQuery(url.searchParams);
  const instants = optional.period ? rangeInstants(optional.period) : null;
  const where = and(
    // The expression properties_crm_search_idx indexes, as the CRM list searches.
    search
      ? sql`property_search_text(${properties.codigo}, ${properties.title}, ${properties.neighborhood}) like immutable_unaccent(lower(${containsPattern(search)})) escape '\\'`
      : undefined,
    instants ? gte(properties.created_at, instants.start) : undefined,
    instants ? lt(properties.created_at, instants.end) : undefined,
  );
  const found = await db
    .select()
    .from(properties)
    .where(where)
    .orderBy(desc(properties.created_at), desc(properties.id))
    .limit(MAX_EXPORT_ROWS + 1);
  if (found.length > MAX_EXPORT_ROWS) throw badRequest(EXPORT_MESSAGES.tooMany);
  const columns: ReportTable["columns"] = [
    { header: "Código", kind: "text" },
    { header: "Título", kind: "text" },
    { header: "Tipo", kind: "text" },
    { header: "Finalidade", kind: "text" },
    { header: "Situação", kind: "text" },
    { header: "Destaque", kind: "text" },
    { header: "Preço (R$)", kind: "money" },
    { header: "Área (m²)", kind: "number" },
    { header: "Quartos", kind: "int" },
    { header: "Banheiros", kind: "int" },
    { header: "Vagas", kind: "int" },
    { header: "Bairro", kind: "text" },
    { header: "Cidade", kind: "text" },
    { header: "UF", kind: "text" },
    // Issue 13's fields: what the portals receive, so the broker can check it in a spreadsheet.
    { header: "Endereço", kind: "text" },
    { header: "CEP", kind: "text" },
    { header: "Exibir endereço", kind: "text" },
    { header: "Publicar nos portais", kind: "text" },
    // Issue 22's fields (the map position waits for the map: this helper writes numbers with two decimals).
    { header: "Condomínio (R$/mês)", kind: "money" },
    { header: "IPTU (R$/ano)", kind: "money" },
    { header: "Área total (m²)", kind: "number" },
    { header: "Suítes", kind: "int" },
    { header: "Andar", kind: "int" },
    { header: "Total de andares", kind: "int" },
    { header: "Ano de construção", kind: "int" },
    { header: "Mobília", kind: "text" },
    { header: "Aceita animais", kind: "text" },
    { header: "Aceita financiamento", kind: "text" },
    { header: "Aceita FGTS", kind: "text" },
    { header: "Aceita permuta", kind: "text" },
    { header: "Garantias de locação", kind: "text" },
    { header: "Características", kind: "text" },
    { header: "Número", kind: "text" },
    { header: "Complemento", kind: "text" },
    { header: "Vídeo", kind: "text" },
    { header: "Tour 360°", kind: "text" },
    { header: "Cadastrado em", kind: "date" },
  ];
  if (options.includePartner) columns.push({ header: "Corretor parceiro", kind: "text" });
  const table: ReportTable = {
    title: "Imóveis",
    columns,
    rows: found.map((row) => {
      const cells = [
        row.codigo,
        row.title,
        TYPE_LABELS[row.type],
        PURPOSE_LABELS[row.purpose],
        STATUS_LABELS[row.status],
        row.featured ? "Sim" : "Não",
        Number(row.price),
        row.area === null ? null : Number(row.area),
        row.bedrooms,
        row.bathrooms,
        row.parking_spaces,
        row.neighborhood,
        row.city,
        row.state,
        row.street_address,
        row.cep,
        row.display_address ? "Sim" : "Não",
        row.publish_to_portals ? "Sim" : "Não",
        row.condo_fee === null ? null : Number(row.condo_fee),
        row.iptu_yearly === null ? null : Number(row.iptu_yearly),
        row.total_area === null ? null : Number(row.total_area),
        row.suites,
        row.floor,
        row.total_floors,
        row.year_built,
        row.furnished ? FURNISHED_LABELS[row.furnished] : null,
        yesNo(row.pets_allowed),
        yesNo(row.accepts_financing),
        yesNo(row.accepts_fgts),
        yesNo(row.accepts_exchange),
        row.rental_guarantees.map((guarantee) => RENTAL_GUARANTEE_LABELS[guarantee]).join(", "),
        row.features.map((feature) => FEATURES[feature]?.label ?? feature).join(", "),
        row.address_number,
        row.address_complement,
        row.video_url,
        row.tour_url,
        new Date(row.created_at).toISOString(),
      ];
      if (options.includePartner) cells.push(row.broker_partner);
      return cells;
    }),
  };
  return tableDownload(table, format, optional.period ? `imoveis-${fileDay(optional.period)}` : "imoveis");
}
