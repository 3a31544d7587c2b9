import {
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  type ChartOptions,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
} from "chart.js";
import { Bar, Line } from "react-chartjs-2";

/**
 * One report chart (Chart.js through react-chartjs-2). This module is loaded lazily by the
 * reports page only, so neither library reaches the public site's JavaScript (nor the rest of
 * the CRM). The canvas is an image with a short label; the same numbers are in the table that
 * follows every chart, which is what screen readers and keyboards use.
 */
ChartJS.register(CategoryScale, LinearScale, BarElement, LineElement, PointElement, Tooltip, Legend);

export type ChartSeries = { label: string; data: number[] };
export type ReportChartProps = {
  kind: "bar" | "hbar" | "line";
  labels: string[];
  series: ChartSeries[];
  label: string;
};

// The site's primary colour for the period, a light grey-blue for the previous one.
const COLORS = ["#0b5f7a", "#94a3b8"];

export default function ReportChart({ kind, labels, series, label }: ReportChartProps) {
  const datasets = series.map((entry, index) => ({
    label: entry.label,
    data: entry.data,
    backgroundColor: COLORS[index % COLORS.length],
    borderColor: COLORS[index % COLORS.length],
    borderWidth: kind === "line" ? 2 : 0,
    borderRadius: kind === "line" ? 0 : 4,
    tension: 0.25,
  }));
  const options: ChartOptions<"bar" | "line"> = {
    responsive: true,
    maintainAspectRatio: false,
    indexAxis: kind === "hbar" ? "y" : "x",
    animation: false,
    locale: "pt-BR",
    plugins: { legend: { position: "bottom", labels: { boxWidth: 12 } } },
    scales: {
      [kind === "hbar" ? "x" : "y"]: { beginAtZero: true, ticks: { precision: 0 } },
      [kind === "hbar" ? "y" : "x"]: { ticks: { autoSkip: kind === "line", maxRotation: 0 } },
    },
  };
  const height = kind === "hbar" ? Math.max(160, labels.length * 28 + 60) : 240;
  const canvasProps = { role: "img", "aria-label": `${label}. Os números estão na tabela abaixo.` };
  return (
    <div style={{ height }} className="relative w-full" data-chart={label}>
      {kind === "line" ? (
        <Line data={{ labels, datasets }} options={options as ChartOptions<"line">} {...canvasProps} />
      ) : (
        <Bar data={{ labels, datasets }} options={options as ChartOptions<"bar">} {...canvasProps} />
      )}
    </div>
  );
}
