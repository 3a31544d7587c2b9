import * as z from "zod/mini";
import { isCanonicalMediaUrl } from "~/features/media/urls";
import { email, fullName, hasInvalidCharacters, phone, text } from "~/lib/validation";
import {
  MAX_BIO,
  MAX_NOTIFICATION_EMAILS,
  MAX_TEMPLATE_BODY,
  MAX_TEMPLATE_NAME,
  MAX_TEMPLATES,
} from "./keys";
import { TEMPLATE_PLACEHOLDERS } from "./templates";

/**
 * What /crm/configuracoes accepts, checked by its action (and by the loaders when they read a
 * stored value back, so a row edited by hand cannot put a script link on the public site).
 * Messages in Portuguese: the first one is shown as a toast, each next to its field.
 */

export const SETTINGS_MESSAGES = {
  siteNameMin: "Nome do site deve ter pelo menos 2 caracteres",
  siteNameMax: "Nome do site muito longo",
  creci: "Informe o CRECI (ex.: CRECI-RN 12345-F)",
  creciMax: "CRECI muito longo",
  whatsapp: "WhatsApp inválido. Use DDD e número, ex.: (84) 99999-9999",
  address: "Endereço muito longo",
  cityMin: "Informe a cidade",
  cityMax: "Cidade muito longa",
  areaMin: "Informe a região de atendimento",
  areaMax: "Região de atendimento muito longa",
  instagram: "Link do Instagram inválido. Use https://www.instagram.com/seu-perfil",
  facebook: "Link do Facebook inválido. Use https://www.facebook.com/sua-pagina",
  bioMin: "O texto 'Sobre' deve ter pelo menos 10 caracteres",
  bioMax: `O texto 'Sobre' pode ter no máximo ${MAX_BIO} caracteres`,
  portrait: "Foto inválida. Envie a foto de novo.",
  emailsMin: "Informe pelo menos um e-mail para os avisos",
  emailsMax: `No máximo ${MAX_NOTIFICATION_EMAILS} e-mails para os avisos`,
  emailInvalid: (value: string) => `E-mail inválido: ${value.slice(0, 80)}`,
  templatesMax: `No máximo ${MAX_TEMPLATES} modelos de mensagem`,
  templateNameMin: "Dê um nome ao modelo",
  templateNameMax: `Nome do modelo com no máximo ${MAX_TEMPLATE_NAME} caracteres`,
  templateBodyMin: "Escreva a mensagem do modelo",
  templateBodyMax: `Mensagem do modelo com no máximo ${MAX_TEMPLATE_BODY} caracteres`,
  templateDuplicate: "Dois modelos com o mesmo identificador. Recarregue a página e tente de novo.",
  templatePlaceholder: (placeholder: string) =>
    `Marcador desconhecido: ${placeholder.slice(0, 30)}. Use ${Object.keys(TEMPLATE_PLACEHOLDERS).join(", ")}`,
  malformed: "Dados enviados em formato inválido. Recarregue a página e tente de novo.",
  webhookSecret: "A senha deve ter de 16 a 200 caracteres: letras sem acento, números e símbolos, sem espaços.",
} as const;

/**
 * A webhook password typed by hand (issue 13): 16 to 200 visible ASCII characters. No spaces or
 * accents: the portals send it in an HTTP Basic header, where anything else is read differently
 * by different senders.
 */
export const webhookSecretSchema = z.string({ error: SETTINGS_MESSAGES.webhookSecret }).check(
  z.trim(),
  z.regex(/^[\x21-\x7E]{16,200}$/, { error: SETTINGS_MESSAGES.webhookSecret }),
);

/** A link to a profile on a social network: https only (never javascript: or data:), or empty. */
function socialUrl(hosts: readonly string[], message: string) {
  return z.pipe(
    z.optional(z.string({ error: message })),
    z.transform((value) => value?.trim() ?? ""),
  ).check(
    z.refine(
      (value) => {
        if (value === "") return true;
        if (value.length > 200) return false;
        try {
          const url = new URL(value);
          const host = url.hostname.replace(/^(www|m)\./, "");
          return url.protocol === "https:" && hosts.includes(host) && !url.username && !url.password;
        } catch {
          return false;
        }
      },
      { error: message },
    ),
  );
}

/** wa.me needs the country code: a Brazilian number typed with its DDD gets 55 in front. */
export function normaliseWhatsapp(value: string): string {
  const digits = value.replace(/\D/g, "");
  return digits.length === 10 || digits.length === 11 ? `55${digits}` : digits;
}

export const profileSchema = z.object(
  {
    name: fullName(),
    siteName: text(2, 100, { min: SETTINGS_MESSAGES.siteNameMin, max: SETTINGS_MESSAGES.siteNameMax }),
    creci: text(2, 50, { min: SETTINGS_MESSAGES.creci, max: SETTINGS_MESSAGES.creciMax }),
    phone: phone(),
    whatsapp: z.pipe(
      z.string({ error: SETTINGS_MESSAGES.whatsapp }),
      z.transform((value) => (/^[\d\s()+.-]*$/.test(value) ? normaliseWhatsapp(value) : "")),
    ).check(z.regex(/^\d{12,15}$/, { error: SETTINGS_MESSAGES.whatsapp })),
    email: email(),
    address: z.pipe(
      z.optional(z.string({ error: SETTINGS_MESSAGES.address })),
      z.transform((value) => value?.trim() ?? ""),
    ).check(
      z.maxLength(200, { error: SETTINGS_MESSAGES.address }),
      z.refine((value) => !hasInvalidCharacters(value), { error: SETTINGS_MESSAGES.address }),
    ),
    city: text(2, 60, { min: SETTINGS_MESSAGES.cityMin, max: SETTINGS_MESSAGES.cityMax }),
    serviceArea: text(2, 100, { min: SETTINGS_MESSAGES.areaMin, max: SETTINGS_MESSAGES.areaMax }),
    instagramUrl: socialUrl(["instagram.com"], SETTINGS_MESSAGES.instagram),
    facebookUrl: socialUrl(["facebook.com", "fb.com"], SETTINGS_MESSAGES.facebook),
    bio: text(10, MAX_BIO, { min: SETTINGS_MESSAGES.bioMin, max: SETTINGS_MESSAGES.bioMax }, { multiline: true }),
    // Our own upload (its canonical URL); the action also accepts the first-run default as it is.
    portraitUrl: z.string({ error: SETTINGS_MESSAGES.portrait }).check(z.trim(), z.maxLength(500, { error: SETTINGS_MESSAGES.portrait })),
  },
  { error: SETTINGS_MESSAGES.malformed },
);

export type ProfileInput = z.infer<typeof profileSchema>;

/** Whether a stored or posted portrait may be shown: an upload of ours, or the configured default. */
export function isAllowedPortrait(url: string, envDefault: string): boolean {
  return url === envDefault || isCanonicalMediaUrl(url);
}

/** The addresses typed one per line (commas and semicolons also separate), without repeats. */
export function splitEmails(value: string): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const part of value.split(/[\n,;]+/)) {
    const address = part.trim();
    if (!address || seen.has(address.toLowerCase())) continue;
    seen.add(address.toLowerCase());
    result.push(address);
  }
  return result;
}

const oneEmail = email();

export const notificationEmailsSchema = z.array(z.string()).check(
  z.minLength(1, { error: SETTINGS_MESSAGES.emailsMin }),
  z.maxLength(MAX_NOTIFICATION_EMAILS, { error: SETTINGS_MESSAGES.emailsMax }),
  z.superRefine((addresses, context) => {
    for (const address of addresses) {
      if (!oneEmail.safeParse(address).success) {
        context.addIssue({ code: "custom", message: SETTINGS_MESSAGES.emailInvalid(address), input: address });
        return;
      }
    }
  }),
);

const PLACEHOLDER = /\{[^{}\s]{0,40}\}/g;

export const templateSchema = z.object({
  id: z.string().check(z.regex(/^[a-z0-9-]{1,40}$/, { error: SETTINGS_MESSAGES.malformed })),
  name: text(1, MAX_TEMPLATE_NAME, { min: SETTINGS_MESSAGES.templateNameMin, max: SETTINGS_MESSAGES.templateNameMax }),
  body: text(1, MAX_TEMPLATE_BODY, { min: SETTINGS_MESSAGES.templateBodyMin, max: SETTINGS_MESSAGES.templateBodyMax }, { multiline: true }).check(
    z.superRefine((body, context) => {
      // A misspelt placeholder would reach the client's WhatsApp as "{nomee}": refuse it here.
      const unknown = (body.match(PLACEHOLDER) ?? []).find((placeholder) => !(placeholder in TEMPLATE_PLACEHOLDERS));
      if (unknown) context.addIssue({ code: "custom", message: SETTINGS_MESSAGES.templatePlaceholder(unknown), input: body });
    }),
  ),
});

export const templatesSchema = z.array(templateSchema).check(
  z.maxLength(MAX_TEMPLATES, { error: SETTINGS_MESSAGES.templatesMax }),
  z.refine((templates) => new Set(templates.map((template) => template.id)).size === templates.length, {
    error: SETTINGS_MESSAGES.templateDuplicate,
  }),
);
