import { useFormContext, useWatch } from "react-hook-form";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { RENTAL_GUARANTEES } from "~/db/values";
import { formatBRL } from "~/lib/format";
import { maskBRLInput, parseBRLInput } from "~/lib/money";
import type { PropertyFormInput } from "../../crm-schema";
import { RENTAL_GUARANTEE_LABELS } from "../../labels";
import { iptuMonthly } from "../../listing-format";
import { ChoiceChips, FormSection, MoneyField, useErrorOf, YesNoField } from "./controls";

/** IPTU is typed per year (as the bill says); the hint shows the month's share as it is typed. */
function iptuHint(raw: unknown): string {
  const yearly = typeof raw === "string" && raw.trim() ? parseBRLInput(raw) : Number.NaN;
  const base = "Por ano, como no carnê da prefeitura.";
  return Number.isFinite(yearly) && yearly > 0 ? `${base} Por mês: ${formatBRL(iptuMonthly(yearly))}.` : base;
}

/** Valores: the price, the monthly charges, and the conditions of a sale or a rental. */
export function ValuesSection() {
  const { register, control } = useFormContext<PropertyFormInput>();
  const errorOf = useErrorOf();
  const [purpose, iptu] = useWatch({ control, name: ["purpose", "iptu_yearly"] });
  const rental = purpose === "aluguel";
  return (
    <FormSection id="valores" title="Valores">
      <div className="grid items-start gap-4 sm:grid-cols-3">
        <FormField
          label="Preço (R$)"
          error={errorOf("price")}
          hint={rental ? "Aluguel por mês. Digite só números: os dois últimos são os centavos." : "Digite só números: os dois últimos são os centavos."}
        >
          <Input
            inputMode="numeric"
            autoComplete="off"
            {...register("price", {
              setValueAs: (value: unknown) => (typeof value === "string" ? maskBRLInput(value) : value),
              onChange: (event) => {
                event.target.value = maskBRLInput(event.target.value);
              },
            })}
          />
        </FormField>
        <MoneyField name="condo_fee" label="Condomínio (R$/mês)" hint="Opcional." />
        <MoneyField name="iptu_yearly" label="IPTU (R$/ano)" hint={iptuHint(iptu)} />
      </div>
      {rental ? (
        <ChoiceChips name="rental_guarantees" legend="Garantias aceitas" options={RENTAL_GUARANTEES.map((value) => [value, RENTAL_GUARANTEE_LABELS[value]] as const)} />
      ) : (
        <div className="grid items-start gap-4 lg:grid-cols-2">
          <YesNoField name="accepts_financing" legend="Aceita financiamento" />
          <YesNoField name="accepts_fgts" legend="Aceita FGTS" />
          <YesNoField name="accepts_exchange" legend="Aceita permuta" />
        </div>
      )}
    </FormSection>
  );
}
