import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { properties } from "~/db/schema";
import { action as propertiesAction, loader as propertiesLoader } from "~/routes/crm-properties";
import { loader as exportLoader } from "~/routes/crm-properties-export";
import { createSignedInUser, insertProperty, settle, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * The listing as the portals know it (issue 22), through the CRM's own action with real Requests:
 * every new field saved and read back, each bad value answered 400 with its message and nothing
 * saved lost, and listings from before the fields keep loading and saving.
 */

const context = { cspNonce: "n", clientIp: "192.0.2.30" };
type Answer = { ok: boolean; message: string };
const answer = (result: unknown): { status: number; body: Answer } =>
  result && typeof result === "object" && "init" in result
    ? { status: (result as { init: { status: number } }).init.status, body: (result as unknown as { data: Answer }).data }
    : { status: 200, body: result as Answer };

/** What the CRM dialog sends for a Ponta Negra flat with every field filled. */
const everyField = {
  codigo: "ap-pn-completo",
  title: "Apartamento completo em Ponta Negra",
  description: "Apartamento nascente a duas quadras da praia, varanda gourmet com vista para o Morro do Careca.",
  type: "apartamento",
  purpose: "venda",
  status: "disponivel",
  featured: true,
  price: "780.000,00",
  area: "98",
  bedrooms: "3",
  bathrooms: "2",
  parking_spaces: "2",
  neighborhood: "Ponta Negra",
  city: "Natal",
  state: "RN",
  broker_partner: "",
  images: [] as string[],
  publish_to_portals: true,
  street_address: "Rua Praia de Ponta Negra",
  cep: "59090-000",
  display_address: false,
  condo_fee: "1.150,00",
  iptu_yearly: "2.400,00",
  suites: "1",
  total_area: "120",
  floor: "8",
  total_floors: "15",
  year_built: "2016",
  furnished: "semimobiliado",
  pets_allowed: "true",
  accepts_financing: "true",
  accepts_fgts: "true",
  accepts_exchange: "false",
  rental_guarantees: [] as string[],
  features: ["varanda_gourmet", "ar_condicionado", "piscina", "academia", "elevador", "portaria_24h"],
  address_number: "1200",
  address_complement: "Apto 802",
  latitude: "-5,8812",
  longitude: "-35,1776",
  video_url: "https://youtu.be/dQw4w9WgXcQ",
  tour_url: "https://my.matterport.com/show/?m=SxQL3iGyoDo",
};

const savedFields = {
  condo_fee: 1150,
  iptu_yearly: 2400,
  suites: 1,
  total_area: 120,
  floor: 8,
  total_floors: 15,
  year_built: 2016,
  furnished: "semimobiliado",
  pets_allowed: true,
  accepts_financing: true,
  accepts_fgts: true,
  accepts_exchange: false,
  rental_guarantees: [],
  features: ["varanda_gourmet", "ar_condicionado", "piscina", "academia", "portaria_24h", "elevador"],
  address_number: "1200",
  address_complement: "Apto 802",
  latitude: -5.8812,
  longitude: -35.1776,
  video_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  tour_url: "https://my.matterport.com/show/?m=SxQL3iGyoDo",
};

describe.each(DATABASE_KINDS)("listing fields through the CRM on %s", (kind) => {
  let test: TestRuntime;
  let staff: TestUser;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    staff = await createSignedInUser(test.runtime, "corretor");
  });
  afterAll(async () => {
    await test.stop();
  });

  const post = (json: unknown) =>
    settle(() =>
      propertiesAction({
        request: new Request("http://localhost:3000/crm/imoveis", {
          method: "POST",
          headers: { "Content-Type": "application/json", Cookie: staff.cookie, Origin: "http://localhost:3000" },
          body: JSON.stringify(json),
        }),
        params: {},
        context,
      } as never),
    ).then(answer);

  const crmList = async (search: string) =>
    (await propertiesLoader({
      request: new Request(`http://localhost:3000/crm/imoveis?busca=${encodeURIComponent(search)}`, { headers: { Cookie: staff.cookie } }),
      params: {},
      context,
    } as never)) as { properties: Record<string, unknown>[] };

  const row = async (codigo: string) => (await test.runtime.db.select().from(properties).where(eq(properties.codigo, codigo)))[0];

  it("creates a listing with every field, and the CRM loads each back", async () => {
    expect(await post({ intent: "create", values: everyField })).toEqual({ status: 200, body: { ok: true, message: "Imóvel cadastrado com sucesso!" } });
    expect(await row("AP-PN-COMPLETO")).toMatchObject({ area: 98, ...savedFields });
    const [listed] = (await crmList("AP-PN-COMPLETO")).properties;
    expect(listed).toMatchObject(savedFields);
  });

  it("edits every field, and a cleared field is cleared", async () => {
    const { id } = await row("AP-PN-COMPLETO");
    const edited = {
      ...everyField,
      purpose: "aluguel",
      price: "4.500,00",
      condo_fee: "",
      iptu_yearly: "1.200,00",
      suites: "3",
      floor: "0",
      furnished: "mobiliado",
      pets_allowed: "false",
      rental_guarantees: ["seguro_fianca", "fiador"],
      features: ["piscina"],
      address_complement: "",
      latitude: "",
      longitude: "",
      video_url: "https://vimeo.com/76979871",
      tour_url: "",
    };
    expect(await post({ intent: "update", id, values: edited })).toEqual({ status: 200, body: { ok: true, message: "Imóvel atualizado com sucesso!" } });
    expect(await row("AP-PN-COMPLETO")).toMatchObject({
      purpose: "aluguel",
      price: 4500,
      condo_fee: null,
      iptu_yearly: 1200,
      suites: 3,
      floor: 0,
      furnished: "mobiliado",
      pets_allowed: false,
      // A rental: guarantees kept, sale conditions dropped.
      rental_guarantees: ["fiador", "seguro_fianca"],
      accepts_financing: null,
      accepts_fgts: null,
      accepts_exchange: null,
      features: ["piscina"],
      address_complement: null,
      latitude: null,
      longitude: null,
      video_url: "https://vimeo.com/76979871",
      tour_url: null,
    });
  });

  it("answers a bad value with 400 and its message, and loses nothing already saved", async () => {
    const before = await row("AP-PN-COMPLETO");
    // [what the form sends, the message, the field the dialog is taken to]
    const cases: [Record<string, unknown>, string, string][] = [
      [{ condo_fee: "-1" }, "Condomínio inválido", "condo_fee"],
      [{ iptu_yearly: "9.999.999,00" }, "IPTU deve ser no máximo R$ 1.000.000 por ano", "iptu_yearly"],
      [{ suites: "4" }, "Suítes não podem ser mais que os quartos", "suites"],
      [{ floor: "16" }, "O andar não pode ser maior que o total de andares", "floor"],
      [{ year_built: "1700" }, `Ano de construção deve estar entre 1850 e ${new Date().getUTCFullYear() + 5}`, "year_built"],
      [{ furnished: "decorado" }, "Mobília inválida", "furnished"],
      [{ features: ["piscina", "heliponto"] }, "Característica inválida", "features"],
      [{ features: "x".repeat(5000) }, "Característica inválida", "features"],
      [{ rental_guarantees: [{ tipo: "fiador" }] }, "Garantia de locação inválida", "rental_guarantees"],
      [{ accepts_fgts: "talvez" }, "Aceita FGTS inválido", "accepts_fgts"],
      [{ latitude: "35", longitude: "-35" }, "Latitude fora do Brasil: use um número entre -34 e 6, como -5,88", "latitude"],
      [{ latitude: "-5,88", longitude: "" }, "Informe a latitude e a longitude juntas", "longitude"],
      [{ video_url: "https://www.tiktok.com/@corretor/video/123" }, "Vídeo: use o link de um vídeo do YouTube ou do Vimeo", "video_url"],
      [{ tour_url: "javascript:alert(1)" }, "Tour 360°: use um link do Matterport, Kuula, CloudPano ou Momento360", "tour_url"],
      [{ address_number: "1".repeat(21) }, "Número muito longo", "address_number"],
      [{ total_area: "10" }, "Área útil maior que 5 vezes a área total: confira as duas áreas", "total_area"],
    ];
    for (const [patch, message, field] of cases) {
      expect(await post({ intent: "update", id: before.id, values: { ...everyField, ...patch } }), JSON.stringify(patch)).toEqual({
        status: 400,
        body: { ok: false, message, field },
      });
    }
    const after = await row("AP-PN-COMPLETO");
    expect(after).toEqual(before);
  });

  it("keeps an old listing (saved before these fields) loading and saving, its new fields empty", async () => {
    // As a listing made before migration 0009 is now: the new columns at their defaults.
    const old = await insertProperty(test.runtime, { codigo: "ANTIGO-1", type: "casa", area: 150 });
    const [listed] = (await crmList("ANTIGO-1")).properties;
    expect(listed).toMatchObject({ codigo: "ANTIGO-1", area: 150, condo_fee: null, iptu_yearly: null, features: [], rental_guarantees: [], latitude: null, video_url: null });
    // The dialog as it was before issue 22 (none of the new keys) still saves, and fills nothing in.
    const oldDialog = {
      codigo: "ANTIGO-1",
      title: "Casa antiga reformada",
      description: "Casa de antes dos novos campos, agora editada.",
      type: "casa",
      purpose: "venda",
      status: "disponivel",
      featured: false,
      price: "500.000,00",
      area: "150",
      bedrooms: "3",
      bathrooms: "2",
      parking_spaces: "2",
      neighborhood: "Ponta Negra",
      city: "Natal",
      state: "RN",
      images: [],
    };
    expect(await post({ intent: "update", id: old.id, values: oldDialog })).toEqual({ status: 200, body: { ok: true, message: "Imóvel atualizado com sucesso!" } });
    expect(await row("ANTIGO-1")).toMatchObject({ title: "Casa antiga reformada", condo_fee: null, suites: null, features: [], furnished: null, latitude: null });
  });

  it("shows visitors the new public fields, and the number, complement and position only with 'Exibir endereço'", async () => {
    const rows = async (query: ReturnType<typeof sql>) => ((await test.runtime.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
    const read = async (codigo: string) =>
      (
        await rows(
          sql`select condo_fee, iptu_yearly, suites, features, video_url, address_number, address_complement, latitude, longitude, street_address from properties_public where codigo = ${codigo}`,
        )
      )[0];
    await post({ intent: "create", values: { ...everyField, codigo: "VISTA-1", display_address: false } });
    await post({ intent: "create", values: { ...everyField, codigo: "VISTA-2", display_address: true } });
    const hidden = await read("VISTA-1");
    expect(hidden).toMatchObject({ suites: 1, video_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", address_number: null, address_complement: null, latitude: null, longitude: null, street_address: null });
    expect(Number(hidden.condo_fee)).toBe(1150);
    expect(await read("VISTA-2")).toMatchObject({ address_number: "1200", address_complement: "Apto 802", latitude: -5.8812, longitude: -35.1776 });
    const columns = await rows(sql`select column_name from information_schema.columns where table_name = 'properties_public'`);
    expect(columns.map((column) => column.column_name)).not.toContain("broker_partner");
  });

  it("refuses in the database what the form refuses, whatever path writes", async () => {
    const { id } = await row("VISTA-1");
    for (const change of [
      sql`update properties set features = array['heliponto'] where id = ${id}`,
      sql`update properties set suites = 9 where id = ${id}`,
      sql`update properties set latitude = -5.8, longitude = null where id = ${id}`,
      sql`update properties set video_url = 'javascript:alert(1)' where id = ${id}`,
      sql`update properties set floor = 20, total_floors = 15 where id = ${id}`,
    ]) {
      await expect(test.runtime.db.execute(change)).rejects.toThrow();
    }
  });

  it("exports the new columns", async () => {
    const response = (await exportLoader({
      request: new Request("http://localhost:3000/crm/imoveis/exportar?formato=csv&busca=VISTA-2", { headers: { Cookie: staff.cookie } }),
      params: {},
      context,
    } as never)) as Response;
    const csv = await response.text();
    const [header, line] = csv.replace(/^\uFEFF/, "").split("\r\n");
    expect(header).toContain("Condomínio (R$/mês);IPTU (R$/ano);Área total (m²);Suítes");
    expect(line).toContain("VISTA-2");
    expect(line).toContain("Varanda gourmet, Ar-condicionado, Piscina, Academia, Portaria 24h, Elevador");
  });
});
