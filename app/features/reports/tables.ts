import { COMMISSION_STATUS_LABELS } from "~/features/deals/labels";
import { originLabel } from "~/features/leads/labels";
import { PURPOSE_LABELS, STATUS_LABELS } from "~/features/properties/labels";
import type { FunnelStage, ReportData } from "./reports.server";

/**
 * Every report table in one shape, for the page's accessible tables and for the CSV/XLSX exports
 * alike, so a download always holds what the page shows. Cells are plain values; the column's
 * kind says how to show them (and which XLSX cell type to write). None of these tables holds
 * personal data (no lead's name, phone, e-mail or message): a corretor may export them — except
 * 'negocios' (issue 24), which names each deal's client: its download is audited (decision 026).
 */

export type CellKind = "text" | "int" | "number" | "money" | "percent" | "date" | "datetime" | "days";
export type Cell = string | number | null;
export type Column = { header: string; kind: CellKind };
export type ReportTable = { title: string; columns: Column[]; rows: Cell[][] };

export const REPORT_KEYS = ["resumo", "origens", "funil", "semanas", "imoveis-leads", "vendas", "visualizacoes", "motivos-perda", "negocios"] as const;
export type ReportKey = (typeof REPORT_KEYS)[number];

export const FUNNEL_LABELS: Record<FunnelStage, string> = {
  recebidos: "Novos (recebidos)",
  em_atendimento: "Em atendimento",
  convertido: "Convertidos",
  perdido: "Perdidos",
};

const SECONDS_PER_HOUR = 3600;
// Hours, not days: a lead answered in minutes is 0,2 h, where days rounded it to 0.
const toHours = (seconds: number | null) => (seconds === null ? null : Math.round((seconds / SECONDS_PER_HOUR) * 100) / 100);
const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);
const show = (day: string) => day.split("-").reverse().join("/");
/** Leads lost before reasons were asked (issue 24). */
export const LOST_REASON_UNKNOWN = "Não informado";

export function reportTables(report: ReportData): Record<ReportKey, ReportTable> {
  return {
    resumo: summaryTable(report),
    origens: {
      title: "Leads por origem",
      columns: [
        { header: "Origem", kind: "text" },
        { header: "Leads", kind: "int" },
        { header: "Período anterior", kind: "int" },
      ],
      rows: report.origins.map((row) => [originLabel({ origin: row.origin, portal_name: row.portal }), row.current, row.previous]),
    },
    funil: {
      title: "Funil de leads",
      columns: [
        { header: "Etapa", kind: "text" },
        { header: "Leads", kind: "int" },
        { header: "Período anterior", kind: "int" },
      ],
      rows: report.funnel.map((row) => [FUNNEL_LABELS[row.stage], row.current, row.previous]),
    },
    semanas: {
      title: "Leads por semana",
      columns: [
        { header: "Semana", kind: "text" },
        { header: "Leads", kind: "int" },
        { header: "Semana anterior", kind: "int" },
      ],
      rows: report.weekly.map((row) => [`${show(row.from).slice(0, 5)} a ${show(row.to)}`, row.current, row.previous]),
    },
    "imoveis-leads": {
      title: "Imóveis que mais trouxeram leads",
      columns: [
        { header: "Código", kind: "text" },
        { header: "Imóvel", kind: "text" },
        { header: "Leads", kind: "int" },
        { header: "Período anterior", kind: "int" },
      ],
      rows: report.topProperties.map((row) => [row.codigo, row.title, row.current, row.previous]),
    },
    vendas: {
      title: "Vendas e locações",
      columns: [
        { header: "Código", kind: "text" },
        { header: "Imóvel", kind: "text" },
        { header: "Finalidade", kind: "text" },
        { header: "Situação", kind: "text" },
        { header: "Data", kind: "date" },
        // The listing's price today beside what it closed for, when it closed through a deal
        // (issue 24); a listing marked sold by hand has no deal, so '—'.
        { header: "Preço anunciado (R$)", kind: "money" },
        { header: "Valor fechado (R$)", kind: "money" },
        { header: "Dias no mercado", kind: "days" },
      ],
      rows: report.sales.map((row) => [row.codigo, row.title, PURPOSE_LABELS[row.purpose], STATUS_LABELS[row.status], row.at, row.price, row.finalValue, row.daysOnMarket]),
    },
    visualizacoes: {
      title: "Imóveis mais visualizados",
      columns: [
        { header: "Código", kind: "text" },
        { header: "Imóvel", kind: "text" },
        { header: "Visualizações", kind: "int" },
        { header: "Leads", kind: "int" },
        { header: "Contatos por WhatsApp", kind: "int" },
        { header: "Leads por visualização", kind: "percent" },
        { header: "Período anterior", kind: "int" },
      ],
      rows: report.mostViewed.map((row) => [row.codigo, row.title, row.views, row.leads, row.whatsapp, ratio(row.leads, row.views), row.previousViews]),
    },
    "motivos-perda": lostReasonsTable(report),
    negocios: dealsTable(report),
  } satisfies Record<ReportKey, ReportTable>;
}

/**
 * 'Negócios fechados': the period's standing deals. The commission's columns only when the
 * report was read with commissions (the rows carry null otherwise), so a corretor without the
 * permission gets the same table without them, on the page and in the download.
 */
function dealsTable(report: ReportData): ReportTable {
  const commissions = report.summary.commissionReceivable !== null;
  return {
    title: "Negócios fechados",
    columns: [
      { header: "Fechamento", kind: "date" },
      { header: "Código", kind: "text" },
      { header: "Imóvel", kind: "text" },
      { header: "Cliente", kind: "text" },
      { header: "Finalidade", kind: "text" },
      { header: "Preço anunciado (R$)", kind: "money" },
      { header: "Valor final (R$)", kind: "money" },
      { header: "Desconto", kind: "percent" },
      ...(commissions ? ([{ header: "Comissão (R$)", kind: "money" }, { header: "Situação da comissão", kind: "text" }] satisfies Column[]) : []),
    ],
    rows: report.deals.map((row) => [
      // A calendar day as the instant of its noon in the broker's zone: the "date" kind shows an
      // instant as the broker's day, and noon is that day whatever rounding happens on the way.
      `${row.closedOn}T15:00:00.000Z`,
      row.codigo,
      row.title,
      row.leadName,
      PURPOSE_LABELS[row.kind],
      row.askingPrice,
      row.finalValue,
      row.discount,
      ...(commissions ? [row.commission, row.commissionStatus ? COMMISSION_STATUS_LABELS[row.commissionStatus] : null] : []),
    ]),
  };
}

/** Each reason's count and its share of the period's lost leads, beside the previous period's. */
function lostReasonsTable(report: ReportData): ReportTable {
  const total = report.lostReasons.reduce((sum, row) => sum + row.current, 0);
  const previousTotal = report.lostReasons.reduce((sum, row) => sum + row.previous, 0);
  return {
    title: "Motivos de perda",
    columns: [
      { header: "Motivo", kind: "text" },
      { header: "Leads", kind: "int" },
      { header: "Participação", kind: "percent" },
      { header: "Período anterior", kind: "int" },
      { header: "Participação anterior", kind: "percent" },
    ],
    rows: report.lostReasons.map((row) => [row.reason ?? LOST_REASON_UNKNOWN, row.current, ratio(row.current, total), row.previous, ratio(row.previous, previousTotal)]),
  };
}

/** The summary as a table of numbers (the page shows it as cards). */
export function summaryTable(report: ReportData): ReportTable {
  const { summary } = report;
  const line = (label: string, value: { current: number | null; previous: number | null }, map = (v: number | null) => v) => ({
    label,
    current: map(value.current),
    previous: map(value.previous),
  });
  const percent = (v: number | null) => (v === null ? null : Math.round(v * 10_000) / 100);
  const lines = [
    line("Leads recebidos", summary.leads),
    line("Contatos por WhatsApp", summary.whatsapp),
    line("Taxa de conversão (%)", summary.conversionRate, percent),
    line("Mediana até a conversão (horas)", summary.medianSecondsToConversion, toHours),
    line("Mediana até o primeiro atendimento (horas)", summary.medianSecondsToFirstResponse, toHours),
    line("Imóveis vendidos", summary.sold),
    line("Imóveis alugados", summary.rented),
    line("Valor vendido (R$)", summary.soldValue),
    ...(summary.commission ? [line("Comissões (R$)", summary.commission)] : []),
    line("Visualizações de imóveis", summary.views),
    // Issue 24, item 4: from the deals and proposals themselves.
    line("Negócios fechados", summary.closedDeals),
    line("Desconto médio sobre o preço anunciado (%)", summary.averageDiscount, percent),
    line("Propostas feitas", summary.proposals),
    line("Propostas aceitas", summary.proposalsAccepted),
    line("Taxa de aceitação das propostas (%)", summary.acceptanceRate, percent),
    line("Mediana do primeiro contato ao negócio (dias)", summary.medianDaysToDeal),
    ...(summary.commissionReceived ? [line("Comissões recebidas (R$)", summary.commissionReceived)] : []),
    // A snapshot (today), not a period: the previous column stays empty.
    ...(summary.commissionReceivable
      ? [
          { label: "Comissões a receber hoje (R$)", current: summary.commissionReceivable.amount, previous: null },
          { label: "Comissões a receber vencidas (R$)", current: summary.commissionReceivable.overdueAmount, previous: null },
          { label: "Comissões a receber vencidas (negócios)", current: summary.commissionReceivable.overdue, previous: null },
        ]
      : []),
  ];
  return {
    title: "Resumo",
    // Every line a plain number (percent points, hours with decimals): numeric cells in XLSX.
    columns: [
      { header: "Indicador", kind: "text" },
      { header: "Período", kind: "number" },
      { header: "Período anterior", kind: "number" },
    ],
    rows: lines.map((entry) => [entry.label, entry.current, entry.previous]),
  };
}
