import { type ComponentProps, useRef } from "react";
import { useFetcher } from "react-router";
import { Input } from "~/components/ui/input";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { maskBRLInput } from "~/lib/money";

/**
 * Small pieces shared by the negotiation forms. Each form posts to the lead page's own action
 * (plain forms: they work before the page's JavaScript has loaded) and answers with a toast.
 */

/** An amount in reais: the digits typed are centavos, shown as "540.000,00" (like the listing's price). */
export function MoneyInput({ name, defaultValue, required, ...rest }: { name: string; defaultValue?: string; required?: boolean } & Omit<ComponentProps<"input">, "name" | "defaultValue" | "required">) {
  // `rest` carries what FormField gives its control (id, aria-invalid, aria-describedby): the label binds to it.
  return (
    <Input
      {...rest}
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
  // A keyed fetcher keeps its last answer: a form opened again must not toast (and close on) an old one.
  const atMount = useRef(fetcher.data);
  useAnswerToast({ state: fetcher.state, data: fetcher.data === atMount.current ? undefined : fetcher.data }, onSuccess);
  return fetcher;
}
