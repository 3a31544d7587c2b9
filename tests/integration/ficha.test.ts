import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { properties, throttle } from "~/db/schema";
import { FICHA_LIMIT, FICHA_MESSAGES } from "~/features/ficha/ficha.server";
import { storeImage } from "~/features/media/pipeline.server";
import { getPublicProperty } from "~/features/properties/public-queries.server";
import { dropSettingsCache, saveBrokerProfile } from "~/features/settings/settings.server";
import { getBrokerProfile } from "~/features/site/broker-profile.server";
import { loader as crmFichaLoader } from "~/routes/crm-property-ficha";
import { loader as publicFichaLoader } from "~/routes/property-ficha";
import { isCacheable } from "../../server/request-rules";
import { createSignedInUser, insertProperty, makeRequest, settle, type TestUser } from "../helpers/factories";
import { pdfText } from "../helpers/pdf-text";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * The ficha do imóvel (issue 22 item 6): the PDF's text read back with pdfjs-dist holds the values,
 * the broker and the listing's URL; the public route shows only what the property page may show
 * and counts requests per address; the CRM's shows the full address of any listing.
 */

const BROKER = {
  name: "Marina Albuquerque",
  siteName: "Marina Imóveis Natal",
  creci: "CRECI-RN 12345-F",
  phone: "(84) 98877-6655",
  whatsapp: "(84) 98877-6655",
  email: "marina@imoveisnatal.com.br",
  address: "",
  city: "Natal/RN",
  serviceArea: "Natal e Parnamirim",
  instagramUrl: "",
  facebookUrl: "",
  bio: "Corretora em Natal há dez anos, especialista em apartamentos na zona sul.",
};

const photo = (hue: string) =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background: hue } })
    .composite([{ input: Buffer.from(`<svg width="1200" height="800"><circle cx="600" cy="400" r="250" fill="#ffffff"/></svg>`) }])
    .jpeg()
    .toBuffer();

describe.each(DATABASE_KINDS)("ficha do imóvel on %s", (kind) => {
  let test: TestRuntime;
  let staff: TestUser;
  let hidden: Awaited<ReturnType<typeof insertProperty>>;
  let shown: Awaited<ReturnType<typeof insertProperty>>;
  let rental: Awaited<ReturnType<typeof insertProperty>>;
  let ipCounter = 0;
  // Each request from its own address unless a test is about the limit.
  const freshContext = () => ({ cspNonce: "n", clientIp: `198.51.100.${++ipCounter % 250}` });

  const publicFicha = (id: string, headers: Record<string, string> = {}, context = freshContext()) =>
    settle(() => publicFichaLoader({ request: makeRequest(`/imoveis/${id}/ficha.pdf`, { headers }), params: { id }, context } as never)) as Promise<Response>;
  const crmFicha = (id: string, cookie?: string) =>
    settle(() => crmFichaLoader({ request: makeRequest(`/crm/imoveis/${id}/ficha.pdf`, { cookie }), params: { id }, context: freshContext() } as never)) as Promise<Response>;
  const read = async (response: Response) => pdfText(new Uint8Array(await response.arrayBuffer()));

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    staff = await createSignedInUser(test.runtime, "admin");
    const saved = await saveBrokerProfile(test.runtime, null, { ...BROKER, portraitUrl: getBrokerProfile().portraitUrl });
    expect(saved.ok).toBe(true);
    dropSettingsCache();
    const images = [];
    for (const hue of ["#2a6f97", "#bc6c25", "#588157", "#9d4edd", "#e63946"]) images.push((await storeImage(test.runtime, await photo(hue))).url);
    hidden = await insertProperty(test.runtime, {
      codigo: "AP-PN-1402",
      title: "Apartamento com vista para o mar em Ponta Negra",
      description: "Apartamento nascente, com varanda gourmet e vista para o mar. Condomínio com piscina, academia e portaria 24h.",
      type: "apartamento",
      purpose: "venda",
      price: 850000,
      area: 98,
      total_area: 130,
      bedrooms: 3,
      suites: 2,
      bathrooms: 3,
      parking_spaces: 2,
      floor: 14,
      total_floors: 20,
      condo_fee: 950,
      iptu_yearly: 2400,
      furnished: "semimobiliado",
      accepts_financing: true,
      accepts_fgts: true,
      features: ["varanda_gourmet", "vista_mar", "piscina", "academia", "portaria_24h"],
      street_address: "Rua Praia de Ponta Negra",
      address_number: "8765",
      address_complement: "Apto 1402, Bloco Sol",
      cep: "59090-210",
      display_address: false,
      images,
    });
    shown = await insertProperty(test.runtime, {
      codigo: "CA-CM-77",
      title: "Casa térrea em Capim Macio",
      type: "casa",
      street_address: "Rua Missionário Gunnar Vingren",
      address_number: "321",
      cep: "59078-400",
      display_address: true,
      images: images.slice(0, 1),
    });
    rental = await insertProperty(test.runtime, {
      codigo: "AP-LN-303",
      title: "Apartamento para alugar em Lagoa Nova",
      type: "apartamento",
      purpose: "aluguel",
      price: 2300,
      condo_fee: 600,
      iptu_yearly: 1200,
      rental_guarantees: ["fiador", "caucao"],
    });
  });

  afterAll(async () => {
    await test?.stop();
  });

  it("the public ficha is a 1–2 page A4 PDF with the values, the broker, the CRECI and the listing's URL", async () => {
    const response = await publicFicha(hidden.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="ficha-AP-PN-1402.pdf"');
    expect(response.headers.get("cache-control")).toBe("public, no-cache");
    expect(response.headers.get("etag")).toMatch(/^W\/"ficha-[\w-]+"$/);
    const { pages, text, info } = await read(response);
    expect(pages.length).toBeGreaterThanOrEqual(1);
    expect(pages.length).toBeLessThanOrEqual(2);
    for (const expected of [
      "Apartamento com vista para o mar em Ponta Negra",
      "Código AP-PN-1402",
      "R$ 850.000",
      "Condomínio R$ 950/mês",
      "IPTU R$ 2.400/ano (R$ 200/mês)",
      "Suítes 2",
      "Área útil 98 m²",
      "14º andar de 20",
      "Semimobiliado",
      "Aceita financiamento",
      "Aceita FGTS",
      "Varanda gourmet",
      "Portaria 24h",
      "Do condomínio",
      "Apartamento nascente, com varanda gourmet",
      "Ponta Negra, Natal/RN",
      BROKER.name,
      BROKER.creci,
      BROKER.phone,
      BROKER.siteName,
      `http://localhost:3000/imoveis/${hidden.id}`,
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(info.Title).toBe("Ficha do imóvel AP-PN-1402 – Apartamento com vista para o mar em Ponta Negra");
  });

  it("a hidden address leaves out the street, number, complement and CEP; the CRM's ficha has them", async () => {
    const { text } = await read(await publicFicha(hidden.id));
    for (const secret of ["Praia de Ponta Negra", "8765", "Bloco Sol", "59090-210"]) expect(text).not.toContain(secret);
    const crm = await crmFicha(hidden.id, staff.cookie);
    expect(crm.status).toBe(200);
    expect(crm.headers.get("cache-control")).toBe("private, no-cache");
    const full = await read(crm);
    expect(full.text).toContain("Rua Praia de Ponta Negra, 8765, Apto 1402, Bloco Sol · CEP 59090-210");
  });

  it("a shown address is on the public ficha, as on the property page", async () => {
    const { text } = await read(await publicFicha(shown.id));
    expect(text).toContain("Rua Missionário Gunnar Vingren, 321 · CEP 59078-400");
    expect(text).toContain("Casa térrea em Capim Macio");
  });

  it("a rental shows the rent, condomínio, IPTU and the monthly total, and the guarantees", async () => {
    const { text } = await read(await publicFicha(rental.id));
    expect(text).toContain("Aluguel R$ 2.300/mês");
    expect(text).toContain("Condomínio R$ 600/mês");
    // 2.300 + 600 + 1.200/12
    expect(text).toContain("Total mensal R$ 3.000/mês");
    expect(text).toContain("Garantias: Fiador, Caução");
  });

  it("the longest description the form allows still ends within two pages", async () => {
    const long = await insertProperty(test.runtime, {
      description: Array.from({ length: 40 }, (_, index) => `Parágrafo ${index + 1} da descrição, com ação e coração.`).join(" ").slice(0, 2000),
      features: ["varanda", "varanda_gourmet", "piscina_privativa", "ar_condicionado", "armarios_planejados", "cozinha_americana", "closet", "escritorio", "piscina", "academia", "salao_festas", "playground"],
      images: hidden.images,
    });
    const { pages, text } = await read(await publicFicha(long.id));
    expect(pages.length).toBe(2);
    expect(text).toContain("Parágrafo 1 da descrição, com ação e coração.");
    expect(text).toContain(BROKER.creci);
  });

  it("404 for an unknown, a malformed or a deleted listing on the public route, as the property page", async () => {
    const gone = await insertProperty(test.runtime);
    await test.runtime.db.delete(properties).where(eq(properties.id, gone.id));
    for (const id of ["00000000-0000-4000-8000-000000000000", "nao-e-um-id", gone.id]) {
      expect(await getPublicProperty(test.runtime.db, id)).toBeNull();
      const response = await publicFicha(id);
      expect(response.status, id).toBe(404);
      expect(await response.text()).toBe(FICHA_MESSAGES.notFound);
      expect((await crmFicha(id, staff.cookie)).status, id).toBe(404);
    }
  });

  it("answers 304 to a browser that has the current ficha, and a new ETag after the price changes", async () => {
    const first = await publicFicha(shown.id);
    const etag = first.headers.get("etag")!;
    const again = await publicFicha(shown.id, { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    await test.runtime.db.update(properties).set({ price: 612000 }).where(eq(properties.id, shown.id));
    const changed = await publicFicha(shown.id, { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect((await read(changed)).text).toContain("R$ 612.000");
  });

  it("limits the fichas one address may have drawn, with 429 and a Portuguese message", async () => {
    await test.runtime.db.delete(throttle);
    const context = { cspNonce: "n", clientIp: "203.0.113.77" };
    for (let index = 0; index < FICHA_LIMIT.max; index++) {
      // A 304 draws nothing: only the first download would count if these sent the ETag.
      expect((await publicFicha(rental.id, {}, context)).status).toBe(200);
    }
    const refused = await publicFicha(rental.id, {}, context);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe(String(FICHA_LIMIT.windowSeconds));
    expect(await refused.text()).toBe(FICHA_MESSAGES.tooMany);
    // Another address is not affected; staff downloads are not counted.
    expect((await publicFicha(rental.id)).status).toBe(200);
    expect((await crmFicha(rental.id, staff.cookie)).status).toBe(200);
  });

  it("the page cache never keeps a ficha (it has its own ETag and limit)", () => {
    expect(isCacheable("GET", `/imoveis/${hidden.id}/ficha.pdf`, undefined)).toBe(false);
    expect(isCacheable("GET", `/imoveis/${hidden.id}`, undefined)).toBe(true);
  });
});
