import { count, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { leads, outbox, properties } from "~/db/schema";
import { DEFAULT_FILTERS, type ListFilters } from "~/features/properties/filters";
import { action as contactAction } from "~/routes/contact";
import { loader as homeLoader } from "~/routes/home";
import { loader as listLoader } from "~/routes/properties";
import { listPage } from "../helpers/list-page";
import { loader as propertyLoader } from "~/routes/property";
import { loader as robotsLoader } from "~/routes/robots";
import { loader as sitemapLoader } from "~/routes/sitemap";
import { action as bookingAction } from "~/routes/visit-booking";
import { insertProperty, makeRequest } from "../helpers/factories";
import { preferenceRange } from "~/features/leads/visit-preferences";
import { brokerDay } from "~/lib/format";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

const PARTNER = "Parceiro Confidencial Ltda";
let ipCounter = 0;
// Each test gets its own visitor address, so the per-address lead limit is tested on purpose only.
const contextFor = () => ({ cspNonce: "n", clientIp: `198.51.100.${++ipCounter}` });

type DataResult<T> = { data: T; init: { status: number } };
const unwrap = <T>(result: unknown): { data: T; status: number } =>
  result && typeof result === "object" && "init" in result
    ? { data: (result as DataResult<T>).data, status: (result as DataResult<T>).init.status }
    : { data: result as T, status: 200 };

describe.each(DATABASE_KINDS)("public site on %s", (kind) => {
  let test: TestRuntime;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    test = await startTestRuntime(kind, { LEAD_LIMIT_PER_HOUR: "5" });
    const day = 24 * 60 * 60 * 1000;
    const rows = [
      { key: "casaPetropolis", type: "casa", purpose: "venda", neighborhood: "Petrópolis", bedrooms: 3, parking_spaces: 2, price: 900000, featured: false, age: 1 },
      { key: "apPontaNegra", type: "apartamento", purpose: "aluguel", neighborhood: "Ponta Negra", bedrooms: 2, parking_spaces: 1, price: 2500, featured: true, age: 5 },
      { key: "apLuxo", type: "apartamento", purpose: "venda", neighborhood: "Ponta Negra", bedrooms: 5, parking_spaces: 4, price: 6000000, featured: false, age: 2 },
      { key: "terreno", type: "terreno", purpose: "venda", neighborhood: "Cotovelo", bedrooms: null, parking_spaces: null, price: 100000, featured: true, age: 9 },
      { key: "loja", type: "ponto_comercial", purpose: "aluguel", neighborhood: "Lagoa_Nova 100%", bedrooms: null, parking_spaces: 3, price: 5000000, featured: false, age: 3 },
      { key: "vendida", type: "casa", purpose: "venda", neighborhood: "Tirol", bedrooms: 4, parking_spaces: 2, price: 200000, featured: false, age: 4, status: "vendido" },
    ] as const;
    for (const row of rows) {
      const { key, age, ...values } = row;
      const created = await insertProperty(test.runtime, {
        ...values,
        broker_partner: PARTNER,
        images: ["/media/0b7f3c2e-1a2b-4c3d-9e8f-001122334455/800.webp"],
        created_at: new Date(Date.now() - age * day),
      } as never);
      ids[key] = created.id;
    }
  });
  afterAll(async () => {
    await test.stop();
  });

  async function list(filters: Partial<ListFilters> | string) {
    const query = typeof filters === "string" ? filters : "";
    const url = typeof filters === "string" ? `/imoveis?${query}` : "/imoveis";
    const result = listPage(await listLoader({ request: makeRequest(url), params: {}, context: contextFor() } as never));
    return result.properties.map((property) => property.id);
  }
  const idsOf = (...keys: string[]) => keys.map((key) => ids[key]);

  describe("list filters, evaluated in the database", () => {
    it("orders featured first, then newest", async () => {
      expect(await list("")).toEqual(idsOf("apPontaNegra", "terreno", "casaPetropolis", "apLuxo", "loja"));
    });

    it("leaves sold and rented listings out unless 'Mostrar vendidos/alugados' asks for them (decision 002)", async () => {
      expect(await list("")).not.toContain(ids.vendida);
      expect(await list("vendidos=1")).toEqual(idsOf("apPontaNegra", "terreno", "casaPetropolis", "apLuxo", "loja", "vendida"));
    });

    it("filters by type and purpose from tipo and finalidade", async () => {
      expect(await list("tipo=apartamento")).toEqual(idsOf("apPontaNegra", "apLuxo"));
      expect(await list("finalidade=aluguel")).toEqual(idsOf("apPontaNegra", "loja"));
      expect(await list("tipo=apartamento&finalidade=venda")).toEqual(idsOf("apLuxo"));
    });

    it("matches the neighbourhood ignoring case and accents, with % and _ taken literally", async () => {
      expect(await list("bairro=petropolis")).toEqual(idsOf("casaPetropolis"));
      expect(await list("bairro=PONTA")).toEqual(idsOf("apPontaNegra", "apLuxo"));
      expect(await list("bairro=a_n")).toEqual(idsOf("loja"));
      expect(await list("bairro=%25")).toEqual(idsOf("loja"));
      expect(await list("bairro=o%25o")).toEqual([]);
    });

    it("matches bedrooms exactly, and 4+ as four or more", async () => {
      expect(await list("quartos=3")).toEqual(idsOf("casaPetropolis"));
      expect(await list("quartos=4%2B")).toEqual(idsOf("apLuxo"));
      expect(await list("quartos=4%2B&vendidos=1")).toEqual(idsOf("apLuxo", "vendida"));
    });

    it("treats parking as a minimum", async () => {
      expect(await list("vagas=3")).toEqual(idsOf("apLuxo", "loja"));
    });

    it("includes both ends of the price range, and sets no upper bound at the slider's top", async () => {
      expect(await list("preco_min=100000&preco_max=900000")).toEqual(idsOf("terreno", "casaPetropolis"));
      expect(await list("preco_min=100000&preco_max=900000&vendidos=1")).toEqual(idsOf("terreno", "casaPetropolis", "vendida"));
      expect(await list("preco_min=5000000")).toEqual(idsOf("apLuxo", "loja"));
      expect(await list("preco_max=4900000")).not.toContain(ids.apLuxo);
    });

    it("ignores malformed parameters instead of failing", async () => {
      expect((await list("tipo=castelo&quartos=9&preco_min=abc")).length).toBe(5);
    });
  });

  it("never sends broker_partner to a visitor: home, list, property page", async () => {
    const home = await homeLoader();
    const all = listPage(await listLoader({ request: makeRequest("/imoveis"), params: {}, context: contextFor() } as never));
    const detail = await propertyLoader({ request: makeRequest("/"), params: { id: ids.apLuxo }, context: contextFor() } as never);
    for (const data of [home, all, detail]) {
      expect(JSON.stringify(data)).not.toContain(PARTNER);
      expect(JSON.stringify(data)).not.toContain("broker_partner");
    }
    expect(all.properties.length).toBe(5);
    expect(DEFAULT_FILTERS.tipo).toBe("all");
  });

  it("answers unknown and malformed property ids with 404, never an error", async () => {
    for (const id of ["00000000-0000-0000-0000-000000000000", "123", "'; drop table properties; --"]) {
      const result = unwrap<{ property: null }>(
        await propertyLoader({ request: makeRequest(`/imoveis/${id}`), params: { id }, context: contextFor() } as never),
      );
      expect(result.status).toBe(404);
      expect(result.data.property).toBeNull();
    }
  });

  describe("leads from the site", () => {
    beforeEach(async () => {
      await test.runtime.db.delete(leads);
    });

    const booking = (form: Record<string, string>, context = contextFor()) =>
      bookingAction({ request: makeRequest("/agendar-visita", { form }), params: {}, context } as never).then((result) =>
        unwrap<{ ok: boolean; message: string }>(result),
      );

    it("refuses a bad phone with the spec's message and stores nothing", async () => {
      const result = await booking({ full_name: "Ana", phone: "12345678901" });
      expect(result.status).toBe(400);
      expect(result.data.message).toBe("Telefone inválido. Use formato (84) 99999-9999");
      const [{ total }] = await test.runtime.db.select({ total: count() }).from(leads);
      expect(total).toBe(0);
    });

    it("stores a booking as novo / site / comprar for its property, whatever the browser sent", async () => {
      const result = await booking({
        full_name: "  Ana Souza  ",
        phone: "(84) 99999-1234",
        email: "",
        notes: "Sábado de manhã",
        property_id: ids.apPontaNegra,
        status: "convertido",
        origin: "whatsapp",
        interest_type: "vender",
      });
      expect(result).toEqual({ status: 200, data: { ok: true, message: "Agendamento realizado com sucesso! Entraremos em contato em breve." } });
      const [lead] = await test.runtime.db.select().from(leads).orderBy(desc(leads.created_at)).limit(1);
      expect(lead).toMatchObject({
        full_name: "Ana Souza",
        phone: "(84) 99999-1234",
        email: null,
        notes: "Sábado de manhã",
        status: "novo",
        origin: "site",
        interest_type: "comprar",
        property_id: ids.apPontaNegra,
      });
    });

    it("stores the preferred days and periods of a booking (issue 25), and refuses bad ones with 400", async () => {
      const { min, max } = preferenceRange();
      const result = await booking({
        full_name: "Paula Prefere",
        phone: "(84) 99999-4321",
        pref_day_1: max,
        pref_period_1: "tarde",
        pref_day_2: "",
        pref_period_2: "",
        pref_day_3: min,
        pref_period_3: "",
      });
      expect(result.status).toBe(200);
      const [lead] = await test.runtime.db.select().from(leads).orderBy(desc(leads.created_at)).limit(1);
      expect(lead.visit_preferences).toEqual([{ day: max, period: "tarde" }, { day: min }]);
      // The broker's new-lead alert lists them too.
      const [alert] = await test.runtime.db.select().from(outbox).where(eq(outbox.lead_id, lead.id));
      const [y, m, d] = max.split("-");
      expect(alert.text_body).toMatch(new RegExp(`Dias preferidos: \\S+ ${d}/${m}/${y} — Tarde; `));

      const [{ total: before }] = await test.runtime.db.select({ total: count() }).from(leads);
      const past = brokerDay(new Date(Date.now() - 86_400_000));
      const tooFar = brokerDay(new Date(Date.now() + 61 * 86_400_000));
      const refused: [Record<string, string>, string][] = [
        [{ pref_day_1: past }, "1º dia preferido: escolha uma data entre hoje e os próximos 60 dias"],
        [{ pref_day_2: tooFar }, "2º dia preferido: escolha uma data entre hoje e os próximos 60 dias"],
        [{ pref_day_1: "2026-02-30" }, "1º dia preferido: escolha uma data entre hoje e os próximos 60 dias"],
        [{ pref_day_1: "amanhã" }, "1º dia preferido: escolha uma data entre hoje e os próximos 60 dias"],
        [{ pref_day_1: min, pref_period_1: "madrugada" }, "Período do 1º dia inválido: escolha manhã, tarde ou noite"],
        [{ pref_period_3: "noite" }, "Escolha o 3º dia preferido ou deixe o período em branco"],
      ];
      for (const [fields, message] of refused) {
        const answer = await booking({ full_name: "Paula Prefere", phone: "(84) 99999-4321", ...fields });
        expect(answer).toMatchObject({ status: 400, data: { ok: false, message } });
      }
      const [{ total: after }] = await test.runtime.db.select({ total: count() }).from(leads);
      expect(after).toBe(before);
    });

    it("stores a contact message with its text and email", async () => {
      const result = unwrap<{ ok: boolean; message: string }>(
        await contactAction({
          request: makeRequest("/contato", {
            form: { name: "Bruno", email: "bruno@exemplo.com", phone: "(84) 3222-1234", message: "Procuro casa em Capim Macio." },
          }),
          params: {},
          context: contextFor(),
        } as never),
      );
      expect(result.data).toEqual({ ok: true, message: "Mensagem enviada! Redirecionando para o WhatsApp..." });
      const [lead] = await test.runtime.db.select().from(leads);
      expect(lead).toMatchObject({ full_name: "Bruno", email: "bruno@exemplo.com", notes: "Procuro casa em Capim Macio.", status: "novo", origin: "site", interest_type: "comprar" });
    });

    it("checks the contact form's own rules on the server", async () => {
      const result = unwrap<{ ok: boolean; message: string }>(
        await contactAction({
          request: makeRequest("/contato", { form: { name: "Bruno", email: "bruno@exemplo.com", phone: "(84) 3222-1234", message: "curta" } }),
          params: {},
          context: contextFor(),
        } as never),
      );
      expect(result.status).toBe(400);
      expect(result.data.message).toBe("Mensagem deve ter pelo menos 10 caracteres");
    });

    it("drops what a bot puts in the honeypot, answering like a success", async () => {
      const result = await booking({ full_name: "Bot", phone: "(84) 99999-1234", website: "http://spam.example" });
      expect(result.data.ok).toBe(true);
      const [{ total }] = await test.runtime.db.select({ total: count() }).from(leads);
      expect(total).toBe(0);
    });

    it("limits submissions per address, with a clear Portuguese message, counting across forms", async () => {
      const context = contextFor();
      for (let i = 0; i < 5; i++) {
        expect((await booking({ full_name: `Pessoa ${i}`, phone: "(84) 99999-1234" }, context)).status).toBe(200);
      }
      const refused = await booking({ full_name: "Sexta", phone: "(84) 99999-1234" }, context);
      expect(refused.status).toBe(429);
      expect(refused.data.message).toMatch(/Tente novamente mais tarde/);
      // Another address is not affected.
      expect((await booking({ full_name: "Outra pessoa", phone: "(84) 99999-1234" })).status).toBe(200);
      const [{ total }] = await test.runtime.db.select({ total: count() }).from(leads);
      expect(total).toBe(6);
    });

    it("ignores a booking's property id that does not exist", async () => {
      await booking({ full_name: "Carla", phone: "(84) 99999-1234", property_id: "00000000-0000-0000-0000-000000000000" });
      const [lead] = await test.runtime.db.select().from(leads);
      expect(lead.property_id).toBeNull();
    });
  });

  it("lists public pages and properties on the market in the sitemap; robots keeps the CRM out", async () => {
    const xml = await (await sitemapLoader()).text();
    expect(xml).toContain("<loc>http://localhost:3000/imoveis</loc>");
    expect(xml).toContain(`/imoveis/${ids.apLuxo}</loc>`);
    expect(xml).not.toContain(ids.vendida);
    const robots = await robotsLoader().text();
    expect(robots).toMatch(/Disallow: \/crm/);
    expect(robots).toMatch(/Disallow: \/auth/);
    expect(robots).toContain("Sitemap: http://localhost:3000/sitemap.xml");
  });

  it("keeps the public view in step with the table", async () => {
    await test.runtime.db.update(properties).set({ featured: true }).where(eq(properties.id, ids.apLuxo));
    const { data: home } = unwrap<{ featured: { id: string }[] }>(await homeLoader());
    expect(home.featured.map((property) => property.id)).toContain(ids.apLuxo);
    expect(home.featured.length).toBeLessThanOrEqual(3);
    await test.runtime.db.execute(sql`update properties set featured = false where id = ${ids.apLuxo}`);
  });
});
