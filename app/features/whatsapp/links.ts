import type { WhatsappPage } from "~/db/values";

/**
 * The public site's WhatsApp buttons (issue 25, decision 028): each is a plain link to our own
 * /whatsapp redirect, which records the tap and answers 302 to the very wa.me address the button
 * had before. Plain links, so they work without JavaScript and the pages carry no tracking script.
 * The redirect builds the wa.me address itself from the broker's profile: nothing in these links
 * names the destination (no open redirect).
 */

export const WHATSAPP_PATH = "/whatsapp";
/** rel of every button: search engines need not follow the redirect (robots.txt keeps them out too). */
export const WHATSAPP_REL = "nofollow noopener noreferrer";
/** The query's names: the page, the listing's code, the prefilled message. */
export const WHATSAPP_PARAMS = { page: "pagina", listing: "imovel", message: "mensagem" } as const;
/** `mensagem=site`: the general greeting the home and contact pages' big buttons prefill. */
export const SITE_MESSAGE_KEY = "site";

/**
 * The redirect's address for a button. `listing`: a listing's code, whose message the redirect
 * writes (title, code, price, address of its page); `site`: the general greeting; neither: the
 * chat with no prefilled text.
 */
export function whatsappHref(page: WhatsappPage, options: { listing?: string; message?: typeof SITE_MESSAGE_KEY } = {}): string {
  // Spelled out rather than through URLSearchParams: this is on every public page (decision 003).
  // The names are WHATSAPP_PARAMS'; the page names need no encoding.
  const listing = options.listing ? `&imovel=${encodeURIComponent(options.listing)}` : "";
  return `${WHATSAPP_PATH}?pagina=${page}${listing}${options.message ? `&mensagem=${options.message}` : ""}`;
}

/** The page name of a public path, for the buttons every page has (navbar, footer). */
export function whatsappPageOf(pathname: string): WhatsappPage {
  if (pathname === "/") return "home";
  if (pathname === "/imoveis") return "lista";
  if (pathname.startsWith("/imoveis/")) return pathname.startsWith("/imoveis/bairro") ? "bairro" : "imovel";
  return (/^\/(contato|sobre|favoritos|privacidade)$/.exec(pathname)?.[1] as WhatsappPage | undefined) ?? "outra";
}
