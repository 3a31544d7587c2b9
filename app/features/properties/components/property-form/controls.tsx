import { type ReactNode, useId } from "react";
import { useFormContext } from "react-hook-form";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { cn } from "~/lib/utils";
import type { PropertyFormInput } from "../../crm-schema";
import { type FieldName, maskOptionalMoney, type SectionId, sectionDomId } from "./form-model";

/** The building blocks of the property form's sections (all inside its FormProvider). */

export const useErrorOf = () => {
  const {
    formState: { errors },
  } = useFormContext<PropertyFormInput>();
  return (name: FieldName) => errors[name]?.message as string | undefined;
};

/** A titled part of the form; its heading takes focus when the section links move to it. */
export function FormSection({ id, title, hint, children }: { id: SectionId; title: string; hint?: string; children: ReactNode }) {
  const headingId = `${sectionDomId(id)}-titulo`;
  return (
    <section id={sectionDomId(id)} aria-labelledby={headingId} className="grid scroll-mt-3 gap-4 border-t border-border pt-5 first:border-t-0 first:pt-0">
      <div>
        <h3 id={headingId} tabIndex={-1} className="text-base font-bold outline-none focus-visible:underline">
          {title}
        </h3>
        {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
      </div>
      {children}
    </section>
  );
}

/** A reais field with the price's mask (digits are cents); empty means "not said". */
export function MoneyField({ name, label, hint }: { name: "condo_fee" | "iptu_yearly"; label: string; hint?: string }) {
  const { register } = useFormContext<PropertyFormInput>();
  const errorOf = useErrorOf();
  return (
    <FormField label={label} error={errorOf(name)} hint={hint}>
      <Input
        inputMode="numeric"
        autoComplete="off"
        placeholder="0,00"
        {...register(name, {
          // The field shows the mask, and the form (the meter, the IPTU hint) holds the same text.
          setValueAs: (value: unknown) => (typeof value === "string" ? maskOptionalMoney(value) : value),
          onChange: (event) => {
            event.target.value = maskOptionalMoney(event.target.value);
          },
        })}
      />
    </FormField>
  );
}

/** A whole number (quartos, suítes, andar…). */
export function CountField({ name, label, min = 0, hint }: { name: FieldName; label: string; min?: number; hint?: string }) {
  const { register } = useFormContext<PropertyFormInput>();
  const errorOf = useErrorOf();
  return (
    <FormField label={label} error={errorOf(name)} hint={hint}>
      <Input type="number" min={min} inputMode="numeric" {...register(name)} />
    </FormField>
  );
}

/** A checkbox with its label beside it, and an optional hint tied to it. */
export function CheckboxField({ name, label, hint }: { name: "featured" | "display_address" | "publish_to_portals"; label: string; hint?: string }) {
  const { register } = useFormContext<PropertyFormInput>();
  const hintId = useId();
  return (
    <div className="grid gap-1">
      <label className="flex items-center gap-3 text-sm font-medium">
        <input type="checkbox" className="size-5 shrink-0 accent-primary" aria-describedby={hint ? hintId : undefined} {...register(name)} />
        {label}
      </label>
      {hint && (
        <p id={hintId} className="pl-8 text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

const chip =
  "flex min-h-10 cursor-pointer items-center gap-2 rounded-md border border-input bg-white px-3 py-2 text-sm " +
  "has-[:checked]:border-primary has-[:checked]:bg-primary/10 has-[:checked]:font-semibold " +
  "has-[:focus-visible]:outline has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-ring";

/**
 * Sim / Não / Não informado, as three radio buttons in a group named by its legend: quicker on a
 * phone than a select, and "not said" stays distinct from "no".
 */
export function YesNoField({ name, legend }: { name: "pets_allowed" | "accepts_financing" | "accepts_fgts" | "accepts_exchange"; legend: string }) {
  const { register } = useFormContext<PropertyFormInput>();
  const errorOf = useErrorOf();
  const errorId = useId();
  const error = errorOf(name);
  return (
    <fieldset className="grid gap-1.5" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1.5 text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {(
          [
            ["true", "Sim"],
            ["false", "Não"],
            ["", "Não informado"],
          ] as const
        ).map(([value, text]) => (
          <label key={value} className={chip}>
            <input type="radio" value={value} className="size-4 accent-primary" {...register(name)} />
            {text}
          </label>
        ))}
      </div>
      {error && (
        <p id={errorId} className="text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** A group of checkboxes saved as one list (garantias). */
export function ChoiceChips({
  name,
  legend,
  options,
  className,
}: {
  name: "rental_guarantees";
  legend: string;
  options: readonly (readonly [string, string])[];
  className?: string;
}) {
  const { register } = useFormContext<PropertyFormInput>();
  const errorOf = useErrorOf();
  return (
    <fieldset className={cn("grid gap-1.5", className)}>
      <legend className="mb-1.5 text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map(([value, text]) => (
          <label key={value} className={chip}>
            <input type="checkbox" value={value} className="size-4 accent-primary" {...register(name)} />
            {text}
          </label>
        ))}
      </div>
      {errorOf(name) && <p className="text-xs font-medium text-destructive">{errorOf(name)}</p>}
    </fieldset>
  );
}
