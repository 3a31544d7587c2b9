import { useFormContext, useWatch } from "react-hook-form";
import { cn } from "~/lib/utils";
import { type Completeness, completenessText, listingCompleteness } from "../../completeness";
import type { PropertyFormInput } from "../../crm-schema";
import { completenessFromForm } from "./form-model";

/** The bar's colour: red under 50%, amber under 80%, green from there. */
export const completenessTone = (percent: number) => (percent < 50 ? "bg-red-600" : percent < 80 ? "bg-amber-500" : "bg-emerald-600");

/** A listing's completeness as a bar and a sentence (the form's header, the CRM list). */
export function CompletenessBar({ completeness, limit, className }: { completeness: Completeness; limit?: number; className?: string }) {
  const text = completenessText(completeness, limit);
  return (
    <div className={cn("grid gap-1", className)}>
      <div
        role="meter"
        aria-label="Completude do anúncio"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={completeness.percent}
        aria-valuetext={text}
        className="h-1.5 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className={cn("h-full rounded-full", completenessTone(completeness.percent))} style={{ width: `${completeness.percent}%` }} />
      </div>
      <p className="text-xs text-muted-foreground" data-testid="completeness-text">
        {text}
      </p>
    </div>
  );
}

/** The dialog's meter: recomputed from the form as the broker types (only this part re-renders). */
export function CompletenessMeter() {
  const { control } = useFormContext<PropertyFormInput>();
  const values = useWatch({ control }) as Partial<PropertyFormInput>;
  return <CompletenessBar completeness={listingCompleteness(completenessFromForm(values))} limit={4} />;
}
