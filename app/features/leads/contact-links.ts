import { telLink, whatsappLink } from "~/features/site/broker-profile";

/**
 * Links to reach a lead (browser-safe: the lead page and the alert e-mail build the same ones).
 * Leads type Brazilian numbers ("(84) 99999-9999"); wa.me wants the international form, digits
 * only, so the country code 55 is added unless the number already carries one.
 */
export function whatsappNumber(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  return digits.length <= 11 ? `55${digits}` : digits;
}

export function leadWhatsappLink(phone: string, message?: string): string {
  return whatsappLink(whatsappNumber(phone), message);
}

export const leadTelLink = telLink;

/** The lead's page in the CRM, as a path. */
export const leadPath = (id: string) => `/crm/leads/${id}`;

/** A property's public page, as a path. */
export const propertyPath = (id: string) => `/imoveis/${id}`;
