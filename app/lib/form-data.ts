/**
 * Form helpers with no zod in them, so a page can import them without pulling the validation
 * library into its first download (the schemas themselves load on demand).
 */

/** The first issue's message, as the spec wants it shown (a toast). */
export function firstIssueMessage(error: { issues: readonly { message: string }[] }): string {
  return error.issues[0]?.message ?? "Dados inválidos";
}

/** A FormData as a plain object of strings (files and repeated keys are not used by our forms). */
export function formDataToObject(formData: FormData): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of formData.entries()) {
    if (typeof value === "string") result[key] = value;
  }
  return result;
}
