import { describe, expect, it } from "vitest";
import { WHATSAPP_PAGES } from "~/db/values";
import { whatsappHref, whatsappPageOf } from "./links";
import { parseWhatsappQuery } from "./redirect.server";

/** The buttons' links (spelled out for size) and the redirect's reading of them agree. */
describe("WhatsApp button links", () => {
  it.each(WHATSAPP_PAGES)("page %s reads back as written, with a listing and with the greeting", (page) => {
    const read = (href: string) => parseWhatsappQuery(new URL(href, "http://x").searchParams);
    expect(read(whatsappHref(page))).toEqual({ page, codigo: null, siteMessage: false });
    expect(read(whatsappHref(page, { message: "site" }))).toEqual({ page, codigo: null, siteMessage: true });
    expect(read(whatsappHref(page, { listing: "CASA 7/B&C=1" }))).toEqual({ page, codigo: "CASA 7/B&C=1", siteMessage: false });
  });

  it("names the public pages by their paths", () => {
    expect(
      ["/", "/imoveis", "/imoveis/bairros", "/imoveis/bairro/ponta-negra", "/imoveis/3f1c2b9e-0000-4000-8000-000000000000", "/contato", "/sobre", "/favoritos", "/privacidade", "/alertas/abc", "/nao-existe", "/sobre/x"].map(whatsappPageOf),
    ).toEqual(["home", "lista", "bairro", "bairro", "imovel", "contato", "sobre", "favoritos", "privacidade", "outra", "outra", "outra"]);
  });
});
