import { useFetcher } from "react-router";
import { Input } from "~/components/ui/input";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { maskBRLInput } from "~/lib/money";

/**
 * Small pieces shared by the negotiation forms. Each form posts to the lead page's own action
 * (plain forms: they work before the page's JavaScript has loaded) and answers with a toast.
 */

/** An amount in reais: the digits typed are centavos, shown as "540.000,00" (like the listing's price). */
export function MoneyInput({ name, defaultValue, required }: { name: string; defaultValue?: string; required?: boolean }) {
  return (
    <Input
      name={name}
      inputMode="numeric"
      autoComplete="off"
      placeholder="0,00"
      defaultValue={defaultValue}
      required={required}
      maxLength={20}
      onChange={(event) => {
        event.target.value = maskBRLInput(event.target.value);
      }}
    />
  );
}

/** A fetcher for one of the section's forms, with its toast. */
export function useNegotiationFetcher(key: string, onSuccess?: () => void) {
  const fetcher = useFetcher<ActionAnswer>({ key });
  useAnswerToast(fetcher, onSuccess);
  return fetcher;
}
