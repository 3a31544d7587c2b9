/**
 * Shapes what a visitor types into the spec's phone format, "(84) 99999-9999", as they type:
 * the validation pattern (spec §5) is strict, so help people meet it instead of refusing them.
 */
export function formatPhoneInput(value: string): string {
  let digits = value.replace(/\D/g, "");
  // Pasted with the country code (+55 84 …): drop it.
  if (digits.length > 11 && digits.startsWith("55")) digits = digits.slice(2);
  digits = digits.slice(0, 11);
  if (digits.length === 0) return "";
  if (digits.length <= 2) return `(${digits}`;
  const area = digits.slice(0, 2);
  const rest = digits.slice(2);
  if (rest.length <= 4) return `(${area}) ${rest}`;
  // 8 digits (landline): 4-4; 9 digits (mobile): 5-4.
  const split = rest.length <= 8 ? 4 : 5;
  return `(${area}) ${rest.slice(0, split)}-${rest.slice(split)}`;
}
