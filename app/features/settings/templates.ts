/**
 * WhatsApp message templates (kept in the settings, used on the lead page). Browser-safe: the
 * lead page fills them in the browser to build wa.me links.
 */
export type WhatsappTemplate = { id: string; name: string; body: string };

/** What a template may say, with the text a broker writes in it. */
export const TEMPLATE_PLACEHOLDERS = {
  "{nome}": "primeiro nome do lead",
  "{imovel}": "título do imóvel",
  "{link}": "link do imóvel no site",
  "{codigo}": "código do imóvel",
  "{corretor}": "seu nome",
} as const;

export type TemplateValues = {
  /** The lead's full name; templates use the first name. */
  leadName: string;
  propertyTitle?: string | null;
  propertyLink?: string | null;
  propertyCodigo?: string | null;
  brokerName: string;
};

/** First-run templates, until the broker edits them in /crm/configuracoes. */
export const DEFAULT_WHATSAPP_TEMPLATES: WhatsappTemplate[] = [
  {
    id: "primeiro-contato",
    name: "Primeiro contato",
    body: "Olá, {nome}! Aqui é {corretor}. Recebi seu contato pelo site e estou à disposição para ajudar. Podemos conversar?",
  },
  {
    id: "sobre-o-imovel",
    name: "Sobre o imóvel",
    body: "Olá, {nome}! Aqui é {corretor}. Sobre o imóvel {imovel} ({codigo}): {link} — quer agendar uma visita?",
  },
  {
    id: "confirmar-visita",
    name: "Confirmar visita",
    body: "Olá, {nome}! Passando para confirmar nossa visita ao imóvel {imovel}. Posso contar com você?",
  },
];

/** The template with its placeholders replaced; a placeholder with no value becomes empty. */
export function fillTemplate(body: string, values: TemplateValues): string {
  const firstName = values.leadName.trim().split(/\s+/)[0] ?? "";
  const replacements: Record<keyof typeof TEMPLATE_PLACEHOLDERS, string> = {
    "{nome}": firstName,
    "{imovel}": values.propertyTitle ?? "",
    "{link}": values.propertyLink ?? "",
    "{codigo}": values.propertyCodigo ?? "",
    "{corretor}": values.brokerName,
  };
  return body.replace(/\{(nome|imovel|link|codigo|corretor)\}/g, (placeholder) => replacements[placeholder as keyof typeof replacements]);
}
