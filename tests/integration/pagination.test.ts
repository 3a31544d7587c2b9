import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "~/db/schema";
import { pageWindow } from "~/components/ui/pagination";
import { loader as leadsLoader } from "~/routes/crm-leads";
import { loader as crmPropertiesLoader } from "~/routes/crm-properties";
import { loader as usersLoader } from "~/routes/crm-users";
import { loader as listLoader } from "~/routes/properties";
import { loader as sitemapLoader } from "~/routes/sitemap";
import { createSignedInUser, insertLead, insertProperty, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

const context = { cspNonce: "n", clientIp: "198.51.100.77" };
type Loader = (args: never) => Promise<unknown>;
const load = async <T>(loader: Loader, path: string, cookie?: string) =>
  (await loader({ request: makeRequest(path, { cookie }), params: {}, context } as never)) as T;

type ListData = { properties: { id: string; featured: boolean }[]; total: number; page: number; pageCount: number };

describe("page numbers shown around the current page", () => {
  it("shows every page up to seven, else the ends and the neighbours with gaps", () => {
    expect(pageWindow(2, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, "gap", 20]);
    expect(pageWindow(10, 20)).toEqual([1, "gap", 9, 10, 11, "gap", 20]);
    expect(pageWindow(20, 20)).toEqual([1, "gap", 17, 18, 19, 20]);
  });
});

describe.each(DATABASE_KINDS)("pagination on %s", (kind) => {
  let test: TestRuntime;
  let admin: TestUser;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    admin = await createSignedInUser(test.runtime, "admin");
    // 30 listings created in the same instant: the id must break the tie, or pages overlap.
    const now = new Date();
    for (let index = 1; index <= 30; index++) {
      await insertProperty(test.runtime, {
        codigo: `PG-${index}`,
        title: `Casa paginada ${index}`,
        neighborhood: index % 2 ? "Petrópolis" : "Tirol",
        featured: index === 30,
        created_at: now,
        status: index === 1 ? "vendido" : "disponivel",
      });
    }
    for (let index = 1; index <= 30; index++) {
      await insertLead(test.runtime, { full_name: `Cliente ${index} Araújo`, phone: `(84) 98888-${String(index).padStart(4, "0")}`, status: index % 3 ? "novo" : "perdido" });
    }
    await test.runtime.db
      .insert(user)
      .values(Array.from({ length: 30 }, (_, index) => ({ id: `pg-user-${index}`, name: `Conta ${index}`, email: `conta${index}@exemplo.com` })));
  }, 120_000);

  afterAll(async () => {
    await test?.stop();
  });

  it("/imoveis: 12 a page, every listing once across the pages, featured first, total counted", async () => {
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      // vendidos=1: the sold one too (the list leaves it out by default, decision 002).
      const data = await load<ListData>(listLoader as Loader, page === 1 ? "/imoveis?vendidos=1" : `/imoveis?vendidos=1&pagina=${page}`);
      expect(data).toMatchObject({ total: 30, page, pageCount: 3 });
      expect(data.properties).toHaveLength(page === 3 ? 6 : 12);
      if (page === 1) expect(data.properties[0].featured).toBe(true);
      seen.push(...data.properties.map((property) => property.id));
    }
    expect(new Set(seen).size).toBe(30);
    expect(await load<ListData>(listLoader as Loader, "/imoveis")).toMatchObject({ total: 29, pageCount: 3 });
  });

  it("/imoveis: filters count and page together; a page past the end is the last, a malformed one the first", async () => {
    const filtered = await load<ListData>(listLoader as Loader, "/imoveis?bairro=petropolis&pagina=2");
    // Petrópolis holds the odd ones, the sold PG-1 among them: 14 on the list.
    expect(filtered).toMatchObject({ total: 14, page: 2, pageCount: 2 });
    expect(filtered.properties).toHaveLength(2);
    expect(await load<ListData>(listLoader as Loader, "/imoveis?pagina=999999999999")).toMatchObject({ page: 3 });
    for (const bad of ["abc", "0", "-2", "1.5", "%00", "2e3"]) {
      expect(await load<ListData>(listLoader as Loader, `/imoveis?pagina=${bad}`)).toMatchObject({ page: 1 });
    }
    const none = await load<ListData>(listLoader as Loader, "/imoveis?bairro=nenhum-bairro&pagina=4");
    expect(none).toMatchObject({ total: 0, page: 1, pageCount: 1, properties: [] });
  });

  it("the sitemap still lists every listing on the market", async () => {
    const xml = await (await sitemapLoader()).text();
    expect(xml.match(/\/imoveis\/[0-9a-f-]{36}</g)).toHaveLength(29);
    expect(xml.trim().endsWith("</urlset>")).toBe(true);
  });

  it("CRM properties: 25 a page, searched by code, title or neighbourhood (accents ignored)", async () => {
    type Data = { properties: { codigo: string }[]; total: number; page: number; pageCount: number };
    const second = await load<Data>(crmPropertiesLoader as Loader, "/crm/imoveis?pagina=2", admin.cookie);
    expect(second).toMatchObject({ total: 30, page: 2, pageCount: 2 });
    expect(second.properties).toHaveLength(5);
    expect(await load<Data>(crmPropertiesLoader as Loader, "/crm/imoveis?busca=petropolis", admin.cookie)).toMatchObject({ total: 15 });
    expect(await load<Data>(crmPropertiesLoader as Loader, "/crm/imoveis?busca=pg-12", admin.cookie)).toMatchObject({ total: 1 });
    expect(await load<Data>(crmPropertiesLoader as Loader, "/crm/imoveis?busca=paginada%2029", admin.cookie)).toMatchObject({ total: 1 });
    // Wildcards typed in the box are letters.
    expect(await load<Data>(crmPropertiesLoader as Loader, "/crm/imoveis?busca=%25", admin.cookie)).toMatchObject({ total: 0 });
  });

  it("CRM leads: status and search together, by name without accents or by phone digits", async () => {
    type Data = { leads: { full_name: string }[]; total: number; page: number; pageCount: number };
    expect(await load<Data>(leadsLoader as Loader, "/crm/leads?status=novo&pagina=9", admin.cookie)).toMatchObject({ total: 20, page: 1, pageCount: 1 });
    expect(await load<Data>(leadsLoader as Loader, "/crm/leads?pagina=2", admin.cookie)).toMatchObject({ total: 30, page: 2 });
    expect(await load<Data>(leadsLoader as Loader, "/crm/leads?busca=araujo&status=perdido", admin.cookie)).toMatchObject({ total: 10 });
    const byPhone = await load<Data>(leadsLoader as Loader, "/crm/leads?busca=988880012", admin.cookie);
    expect(byPhone.leads.map((lead) => lead.full_name)).toEqual(["Cliente 12 Araújo"]);
  });

  it("CRM users: 25 a page, searched by name or e-mail", async () => {
    type Data = { users: { email: string }[]; total: number; page: number; pageCount: number };
    const second = await load<Data>(usersLoader as Loader, "/crm/usuarios?pagina=2", admin.cookie);
    expect(second).toMatchObject({ total: 31, page: 2, pageCount: 2 });
    expect(second.users).toHaveLength(6);
    expect(await load<Data>(usersLoader as Loader, "/crm/usuarios?busca=conta1", admin.cookie)).toMatchObject({ total: 11 });
  });
});
