import { lazy, Suspense, useEffect, useState, type ReactNode } from "react";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { cn } from "~/lib/utils";
import { formatBRL } from "~/lib/format";
import { formatDays, formatDuration } from "../duration";
import { formatRange, type Period, periodSearch } from "../period";
import type { ReportData } from "../reports.server";
import { type ReportKey, type ReportTable } from "../tables";
import { ExportButtons } from "./export-buttons";
import { PeriodSelector } from "./period-selector";
import type { ReportChartProps } from "./report-chart";
import { formatCell, ReportDataTable } from "./report-table";

// Chart.js arrives only with this page, after it has rendered: the tables are there at once.
const ReportChart = lazy(() => import("./report-chart"));

type Props = {
  period: Period;
  summary: ReportData["summary"];
  tables: Record<ReportKey, ReportTable>;
};

/** Charts draw in the browser only: the server sends the tables, the canvas comes after hydration. */
function Chart(props: ReportChartProps) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const placeholder = <div className="h-60 w-full animate-pulse rounded-md bg-muted" aria-hidden="true" />;
  if (!mounted) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <ReportChart {...props} />
    </Suspense>
  );
}

function Section({ id, title, description, exportHref, children }: { id: ReportKey; title: string; description?: string; exportHref: string; children: ReactNode }) {
  return (
    <Card className="grid min-w-0 gap-4 p-4 sm:p-5" aria-labelledby={`report-${id}`} role="region" data-report={id}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={`report-${id}`} className="text-lg font-semibold">
            {title}
          </h2>
          {description && <p className="text-sm text-muted-foreground">{description}</p>}
        </div>
        <ExportButtons href={exportHref} label={title} />
      </div>
      {children}
    </Card>
  );
}

const column = (table: ReportTable, index: number) => table.rows.map((row) => Number(row[index] ?? 0));
const labels = (table: ReportTable, index = 0) => table.rows.map((row) => String(row[index] ?? ""));

function SummaryCard({ label, current, previous, kind, better = "up" }: { label: string; current: number | null; previous: number | null; kind: "int" | "percent" | "money" | "duration" | "days"; better?: "up" | "down" }) {
  // Durations arrive in seconds and read "12 min", "3 h", "2 d"; "days" in whole days.
  const show = (value: number | null) => (kind === "duration" ? formatDuration(value) : kind === "days" ? formatDays(value) : formatCell(value, kind));
  const change = current !== null && previous !== null ? current - previous : null;
  const good = change === null || change === 0 ? null : (change > 0) === (better === "up");
  return (
    // Amounts run to seven figures: a whole row on a phone, so they never overflow a half-width card.
    <Card className={cn("grid gap-1 p-4", kind === "money" && "col-span-2 sm:col-span-1")} data-summary={label}>
      <p className="text-sm text-muted-foreground">{label}</p>
      <p className="text-2xl font-bold tabular-nums" data-value>
        {show(current)}
      </p>
      <p className="flex items-center gap-1 text-xs text-muted-foreground">
        {change !== null && change !== 0 && (
          <Icon name={change > 0 ? "arrow-up" : "arrow-down"} className={cn("size-3.5", good ? "text-emerald-700" : "text-red-700")} />
        )}
        <span>
          Período anterior: <span data-previous>{show(previous)}</span>
        </span>
      </p>
    </Card>
  );
}

export function ReportsView({ period, summary, tables }: Props) {
  const search = periodSearch(period).toString();
  const exportHref = (key: ReportKey) => `/crm/relatorios/exportar?relatorio=${key}&${search}`;
  const previousLabel = "Período anterior";
  return (
    <div className="grid min-w-0 gap-6">
      <header className="grid gap-4">
        <div>
          <h1 className="text-2xl font-bold">Relatórios</h1>
          <p className="text-sm text-muted-foreground" data-testid="period-range">
            {formatRange(period)} · comparado com {formatRange(period.previous)}
          </p>
        </div>
        <PeriodSelector key={`${period.preset}|${period.from}|${period.to}`} preset={period.preset} from={period.from} to={period.to} />
      </header>

      <section aria-labelledby="report-resumo" className="grid gap-3" data-report="resumo">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="report-resumo" className="text-lg font-semibold">
            Resumo
          </h2>
          <ExportButtons href={exportHref("resumo")} label="Resumo" />
        </div>
        {/* Dense: a half-width card fills the gap a whole-row amount leaves on a phone. */}
        <div className="grid grid-flow-row-dense grid-cols-2 gap-3 lg:grid-cols-3">
          <SummaryCard label="Leads recebidos" kind="int" {...summary.leads} />
          <SummaryCard label="Contatos por WhatsApp" kind="int" {...summary.whatsapp} />
          <SummaryCard label="Taxa de conversão" kind="percent" {...summary.conversionRate} />
          <SummaryCard label="Mediana até a conversão" kind="duration" better="down" {...summary.medianSecondsToConversion} />
          <SummaryCard label="Mediana até o 1º atendimento" kind="duration" better="down" {...summary.medianSecondsToFirstResponse} />
          <SummaryCard label="Imóveis vendidos" kind="int" {...summary.sold} />
          <SummaryCard label="Imóveis alugados" kind="int" {...summary.rented} />
          <SummaryCard label="Valor vendido" kind="money" {...summary.soldValue} />
          {summary.commission && <SummaryCard label="Comissões" kind="money" {...summary.commission} />}
          <SummaryCard label="Visualizações" kind="int" {...summary.views} />
        </div>
      </section>

      <div className="grid min-w-0 gap-6 xl:grid-cols-2">
        <Section id="origens" title="Leads por origem" exportHref={exportHref("origens")}>
          <Chart kind="bar" label="Gráfico de leads por origem" labels={labels(tables.origens)} series={[{ label: "Período", data: column(tables.origens, 1) }, { label: previousLabel, data: column(tables.origens, 2) }]} />
          <ReportDataTable id="origens" table={tables.origens} empty="Nenhum lead no período." />
        </Section>
        <Section id="funil" title="Funil de leads" description="Leads do período que chegaram a cada etapa (pelo histórico de status)." exportHref={exportHref("funil")}>
          <Chart kind="hbar" label="Gráfico do funil de leads" labels={labels(tables.funil)} series={[{ label: "Período", data: column(tables.funil, 1) }, { label: previousLabel, data: column(tables.funil, 2) }]} />
          <ReportDataTable id="funil" table={tables.funil} empty="Nenhum lead no período." />
        </Section>
      </div>

      <Section
        id="motivos-perda"
        title="Motivos de perda"
        description="Leads que passaram a perdido no período (e continuam perdidos), por motivo, e a participação de cada motivo."
        exportHref={exportHref("motivos-perda")}
      >
        {tables["motivos-perda"].rows.length > 0 && (
          <Chart kind="hbar" label="Gráfico dos motivos de perda" labels={labels(tables["motivos-perda"])} series={[{ label: "Período", data: column(tables["motivos-perda"], 1) }, { label: previousLabel, data: column(tables["motivos-perda"], 3) }]} />
        )}
        <ReportDataTable id="motivos-perda" table={tables["motivos-perda"]} empty="Nenhum lead perdido no período." />
      </Section>

      <Section id="semanas" title="Leads por semana" description="Blocos de 7 dias a partir do primeiro dia do período." exportHref={exportHref("semanas")}>
        <Chart kind="line" label="Gráfico de leads por semana" labels={labels(tables.semanas).map((text) => text.slice(0, 5))} series={[{ label: "Período", data: column(tables.semanas, 1) }, { label: previousLabel, data: column(tables.semanas, 2) }]} />
        <ReportDataTable id="semanas" table={tables.semanas} empty="Nenhuma semana no período." />
      </Section>

      <Section id="visualizacoes" title="Imóveis mais visualizados" description="Visitas às páginas dos imóveis (sem robôs nem a equipe logada), leads e toques no botão do WhatsApp do imóvel no período, e a proporção de leads." exportHref={exportHref("visualizacoes")}>
        {tables.visualizacoes.rows.length > 0 && (
          <Chart kind="hbar" label="Gráfico dos imóveis mais visualizados" labels={labels(tables.visualizacoes).slice(0, 10)} series={[{ label: "Visualizações", data: column(tables.visualizacoes, 2).slice(0, 10) }, { label: "Período anterior", data: column(tables.visualizacoes, 6).slice(0, 10) }]} />
        )}
        <ReportDataTable id="visualizacoes" table={tables.visualizacoes} empty="Nenhuma visualização no período." />
      </Section>

      <Section id="imoveis-leads" title="Imóveis que mais trouxeram leads" exportHref={exportHref("imoveis-leads")}>
        <ReportDataTable id="imoveis-leads" table={tables["imoveis-leads"]} empty="Nenhum lead ligado a um imóvel no período." />
      </Section>
      <Section
        id="negocios"
        title="Negócios fechados"
        description="Negócios fechados no período (pela data de fechamento, sem os desfeitos), com o desconto sobre o preço anunciado atual do imóvel, e as propostas feitas no período."
        exportHref={exportHref("negocios")}
      >
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-deal-summary>
          <SummaryCard label="Negócios fechados" kind="int" {...summary.closedDeals} />
          <SummaryCard label="Desconto médio" kind="percent" better="down" {...summary.averageDiscount} />
          <SummaryCard label="Propostas feitas" kind="int" {...summary.proposals} />
          <SummaryCard label="Propostas aceitas" kind="int" {...summary.proposalsAccepted} />
          <SummaryCard label="Taxa de aceitação" kind="percent" {...summary.acceptanceRate} />
          <SummaryCard label="Mediana do 1º contato ao negócio" kind="days" better="down" {...summary.medianDaysToDeal} />
          {summary.commissionReceived && <SummaryCard label="Comissões recebidas" kind="money" {...summary.commissionReceived} />}
          {summary.commissionReceivable && (
            <Card className="col-span-2 grid gap-1 p-4 sm:col-span-1" data-summary="Comissões a receber">
              <p className="text-sm text-muted-foreground">Comissões a receber hoje</p>
              <p className="text-2xl font-bold tabular-nums" data-value>
                {formatBRL(summary.commissionReceivable.amount)}
              </p>
              <p className="text-xs text-muted-foreground">
                {summary.commissionReceivable.deals === 1 ? "1 negócio" : `${summary.commissionReceivable.deals} negócios`}
                {" · "}
                <span className={cn(summary.commissionReceivable.overdue > 0 && "font-semibold text-red-700")} data-overdue>
                  {summary.commissionReceivable.overdue === 1 ? "1 vencida" : `${summary.commissionReceivable.overdue} vencidas`}
                  {summary.commissionReceivable.overdue > 0 && ` (${formatBRL(summary.commissionReceivable.overdueAmount)})`}
                </span>
              </p>
            </Card>
          )}
        </div>
        <ReportDataTable id="negocios" table={tables.negocios} empty="Nenhum negócio fechado no período." />
      </Section>
      <Section id="vendas" title="Vendas e locações" description="Imóveis que passaram a vendido ou alugado no período: o preço anunciado, o valor fechado quando o negócio foi registrado no CRM e os dias no mercado." exportHref={exportHref("vendas")}>
        <ReportDataTable id="vendas" table={tables.vendas} empty="Nenhuma venda ou locação no período." />
      </Section>
    </div>
  );
}
