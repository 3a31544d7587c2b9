import { type ChangeEvent, type ReactElement, cloneElement, useDeferredValue, useId, useMemo, useState } from "react";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { monthlyRateFromYearly, type Schedule } from "../amortization";
import { DEFAULTS, LIMITS, initialInput, parseBrazilianNumber, simulate, type SimulatorInput } from "../simulation";

/**
 * The financing simulator (loaded on demand by FinancingLauncher): price, down payment, term and
 * an effective yearly rate in; SAC and Price side by side out (stacked on phones), each with its
 * full schedule on request. Every figure is an estimate and the page says so.
 */

const money = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });
const amount = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const percent = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 4 });

/** R$ 5.911,85 (with Intl's no-break space after "R$"). */
const formatCents = (cents: number) => money.format(cents / 100);

function termText(months: number): string {
  const years = Math.floor(months / 12);
  const rest = months % 12;
  const parts = [years ? `${years} ${years === 1 ? "ano" : "anos"}` : "", rest ? `${rest} ${rest === 1 ? "mês" : "meses"}` : ""];
  return parts.filter(Boolean).join(" e ");
}

function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string;
  error?: string;
  children: ReactElement<Record<string, unknown>>;
}) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="grid content-start gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-foreground">
        {label}
      </label>
      {cloneElement(children, { id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {error && (
        <p id={`${id}-error`} className="flex items-start gap-1 text-sm font-medium text-destructive">
          <Icon name="circle-alert" className="mt-0.5 size-4 shrink-0" /> {error}
        </p>
      )}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

const SYSTEMS = {
  sac: { title: "SAC", subtitle: "Parcelas decrescentes: amortização constante e juros sobre o saldo que cai." },
  price: { title: "Tabela Price", subtitle: "Parcelas iguais; a última acerta a diferença dos arredondamentos." },
} as const;

function ScheduleCard({ schedule }: { schedule: Schedule }) {
  const [showTable, setShowTable] = useState(false);
  // Typing stays quick while an open 420-row table catches up.
  const rows = useDeferredValue(schedule.rows);
  const captionId = useId();
  const { title, subtitle } = SYSTEMS[schedule.system];
  const figures: [string, number][] = [
    ["Primeira parcela", schedule.firstInstalment],
    ["Última parcela", schedule.lastInstalment],
    ["Total pago", schedule.totalPaid],
    ["Total de juros", schedule.totalInterest],
  ];
  return (
    <section aria-label={title} data-system={schedule.system} className="min-w-0 rounded-lg border border-border bg-white p-3 shadow-sm sm:p-4">
      <h3 className="text-lg font-semibold">{title}</h3>
      <p className="mt-1 text-sm text-muted-foreground">{subtitle}</p>
      <dl className="mt-3 grid gap-2">
        {figures.map(([label, value]) => (
          <div key={label} className="flex flex-wrap items-baseline justify-between gap-x-3 border-b border-border/70 pb-2 last:border-b-0">
            <dt className="text-sm text-muted-foreground">{label}</dt>
            <dd className="font-semibold tabular-nums">{formatCents(value)}</dd>
          </div>
        ))}
      </dl>
      <details className="mt-3" onToggle={(event) => setShowTable(event.currentTarget.open)}>
        <summary className="cursor-pointer rounded-sm text-sm font-semibold text-primary underline-offset-4 hover:underline">
          Ver tabela completa
        </summary>
        {/* 360 rows or more: drawn only once asked for. */}
        {showTable && (
          <div
            tabIndex={0}
            role="region"
            aria-labelledby={captionId}
            className="relative mt-2 max-h-96 w-0 min-w-full overflow-auto rounded-md border border-border"
          >
            <table className="w-full border-collapse text-xs tabular-nums">
              <caption id={captionId} className="px-1 sm:px-2 py-2 text-left text-sm font-medium">
                {title}: {rows.length} parcelas (valores em R$)
              </caption>
              <thead className="sticky top-0 bg-muted">
                <tr>
                  {["Nº", "Parcela", "Juros", "Amortização", "Saldo"].map((heading) => (
                    <th key={heading} scope="col" className="whitespace-nowrap px-1 sm:px-2 py-2 text-right font-semibold first:text-left">
                      {heading}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.number} className="border-t border-border/70">
                    <th scope="row" className="px-1 sm:px-2 py-1 text-left font-normal text-muted-foreground">
                      {row.number}
                    </th>
                    <td className="whitespace-nowrap px-1 sm:px-2 py-1 text-right">{amount.format(row.instalment / 100)}</td>
                    <td className="whitespace-nowrap px-1 sm:px-2 py-1 text-right">{amount.format(row.interest / 100)}</td>
                    <td className="whitespace-nowrap px-1 sm:px-2 py-1 text-right">{amount.format(row.amortization / 100)}</td>
                    <td className="whitespace-nowrap px-1 sm:px-2 py-1 text-right">{amount.format(row.balance / 100)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </details>
    </section>
  );
}

export default function FinancingSimulator({ listingPrice }: { listingPrice: number }) {
  const [input, setInput] = useState<SimulatorInput>(() => initialInput(listingPrice));
  const result = useMemo(() => simulate(input), [input]);
  const errors = result.ok ? {} : result.errors;

  const update = (field: keyof SimulatorInput) => (event: ChangeEvent<HTMLInputElement>) =>
    setInput((current) => ({ ...current, [field]: event.target.value }));

  const price = parseBrazilianNumber(input.price);
  const down = parseBrazilianNumber(input.downPayment);
  const months = parseBrazilianNumber(input.months);
  const yearlyRate = parseBrazilianNumber(input.yearlyRate);
  const downHint =
    !errors.downPayment && !errors.price && price && down !== null ? `${percent.format(Math.round((down / price) * 1000) / 10)} % do valor do imóvel.` : undefined;
  // Hints give way to the field's message when there is one.
  const termHint = errors.months || !months ? undefined : `${termText(months)}. Até ${LIMITS.maxMonths} meses (35 anos).`;
  const rateHint = errors.yearlyRate || yearlyRate === null
    ? undefined
    : `Equivale a ${percent.format(monthlyRateFromYearly(yearlyRate / 100) * 100)} % ao mês. A taxa inicial de ${percent.format(DEFAULTS.yearlyRatePercent)} % ao ano é um exemplo, não uma oferta de banco.`;

  return (
    <div className="grid gap-4 sm:rounded-lg sm:border sm:border-border sm:bg-muted/40 sm:p-5">
      <p className="flex gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
        <Icon name="info" className="mt-0.5 size-4 shrink-0" />
        <span>
          <strong>Simulação estimada.</strong> Os valores reais dependem da análise de crédito do banco e incluem seguros
          obrigatórios, tarifas e a correção do saldo (TR), que não entram nesta conta.
        </span>
      </p>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Valor do imóvel (R$)" error={errors.price}>
          <Input inputMode="decimal" autoComplete="off" value={input.price} onChange={update("price")} />
        </Field>
        <Field label="Entrada (R$)" error={errors.downPayment} hint={downHint}>
          <Input inputMode="decimal" autoComplete="off" value={input.downPayment} onChange={update("downPayment")} />
        </Field>
        <Field label="Prazo (meses)" error={errors.months} hint={termHint}>
          <Input inputMode="numeric" autoComplete="off" value={input.months} onChange={update("months")} />
        </Field>
        <Field label="Taxa de juros (% ao ano, efetiva)" error={errors.yearlyRate} hint={rateHint}>
          <Input inputMode="decimal" autoComplete="off" value={input.yearlyRate} onChange={update("yearlyRate")} />
        </Field>
      </div>

      {result.ok ? (
        <>
          <p className="text-sm">
            Valor financiado: <strong className="tabular-nums">{formatCents(result.principal)}</strong> em {result.months}{" "}
            {result.months === 1 ? "parcela mensal" : "parcelas mensais"}.
          </p>
          <div className="grid gap-4 sm:grid-cols-2">
            <ScheduleCard schedule={result.sac} />
            <ScheduleCard schedule={result.price} />
          </div>
        </>
      ) : (
        <p className="text-sm font-medium text-muted-foreground">Corrija os campos indicados para ver a simulação.</p>
      )}
    </div>
  );
}
