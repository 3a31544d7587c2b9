import * as z from "zod/mini";

/**
 * Field rules shared by the forms' schemas (spec §5), written with zod/mini: the same schema
 * validates in the browser and again in the action, and mini keeps the public pages light
 * (~5 KB gzipped instead of ~90 KB for the classic API; see docs/decisions/003-javascript-budget.md).
 * All text is trimmed before it is checked.
 */

export const PHONE_PATTERN = /^(\(\d{2}\)\s?)?9?\d{4}-?\d{4}$/;

export const MESSAGES = {
  nameMin: "Nome deve ter pelo menos 2 caracteres",
  nameMax: "Nome muito longo",
  nameInvalid: "Nome contém caracteres inválidos",
  email: "Email inválido",
  emailMax: "Email muito longo",
  phone: "Telefone inválido. Use formato (84) 99999-9999",
  phoneLength: "Telefone inválido",
  invalidCharacters: "Caracteres inválidos",
} as const;

/**
 * Text a person could have typed. Control characters (NUL, escape, the C1 range) never come from
 * a keyboard: PostgreSQL refuses NUL, and the others forge log lines or hide text. Line breaks
 * and tabs are typed in multi-line fields only. A lone UTF-16 surrogate is no character at all.
 */
const CONTROL_SINGLE_LINE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;
const CONTROL_MULTI_LINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasInvalidCharacters(value: string, multiline = false): boolean {
  return (multiline ? CONTROL_MULTI_LINE : CONTROL_SINGLE_LINE).test(value) || LONE_SURROGATE.test(value);
}

type TextOptions = {
  /** Allow line breaks and tabs (a message, notes, a description). */
  multiline?: boolean;
  /** Shown for control characters; "Caracteres inválidos" by default. */
  invalid?: string;
};

/** A trimmed string between min and max characters, with no control characters. */
export function text(min: number, max: number, messages: { min: string; max: string }, options: TextOptions = {}) {
  return z.string({ error: messages.min }).check(
    z.trim(),
    z.minLength(min, { error: messages.min }),
    z.maxLength(max, { error: messages.max }),
    z.refine((value) => !hasInvalidCharacters(value, options.multiline), {
      error: options.invalid ?? MESSAGES.invalidCharacters,
    }),
  );
}

/** A trimmed string of at most max characters with no control characters; empty becomes undefined. */
export function optionalText(max: number, message: string, options: TextOptions = {}) {
  const invalid = options.invalid ?? MESSAGES.invalidCharacters;
  return z.pipe(
    z.optional(z.nullable(z.string({ error: invalid }))),
    z.transform((value) => value?.trim() || undefined),
  ).check(
    z.refine((value) => value === undefined || value.length <= max, { error: message }),
    z.refine((value) => value === undefined || !hasInvalidCharacters(value, options.multiline), { error: invalid }),
  );
}

export const fullName = () =>
  text(2, 100, { min: MESSAGES.nameMin, max: MESSAGES.nameMax }, { invalid: MESSAGES.nameInvalid });

export const phone = () =>
  z.string({ error: MESSAGES.phoneLength }).check(
    z.trim(),
    z.minLength(10, { error: MESSAGES.phoneLength }),
    z.maxLength(20, { error: MESSAGES.phoneLength }),
    z.regex(PHONE_PATTERN, { error: MESSAGES.phone }),
  );

export const email = () =>
  z.string({ error: MESSAGES.email }).check(
    z.trim(),
    z.maxLength(255, { error: MESSAGES.emailMax }),
    z.email({ error: MESSAGES.email }),
  );

/** Optional email: empty means none; otherwise valid and at most 255 characters. */
export const optionalEmail = () =>
  z.pipe(
    z.optional(z.nullable(z.string({ error: MESSAGES.email }))),
    z.transform((value) => value?.trim() || undefined),
  ).check(
    z.refine((value) => value === undefined || value.length <= 255, { error: MESSAGES.emailMax }),
    z.refine((value) => value === undefined || EMAIL_PATTERN.test(value), { error: MESSAGES.email }),
  );

// The same pattern zod's z.email() uses by default, for the optional variant above.
const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** One of a list of values (a <select>): input any string, output the value; else the message. */
export function choice<const T extends readonly [string, ...string[]]>(values: T, message: string) {
  return z.pipe(z.optional(z.string({ error: message })), z.enum(values, { error: message }));
}
