import type { ComponentProps } from "react";
import { formatPhoneInput } from "~/lib/phone";
import { Input } from "./input";

/** A phone field that shapes typing into "(84) 99999-9999" (spec §5's format) as people type. */
export function PhoneInput({ onInput, ...props }: ComponentProps<"input">) {
  return (
    <Input
      type="tel"
      inputMode="tel"
      // "tel", not "tel-national": the Nu HTML checker refuses the latter on type="tel". A
      // filled-in "+55 84 …" loses its country code in formatPhoneInput.
      autoComplete="tel"
      placeholder="(84) 99999-9999"
      maxLength={20}
      onInput={(event) => {
        event.currentTarget.value = formatPhoneInput(event.currentTarget.value);
        onInput?.(event);
      }}
      {...props}
    />
  );
}
