import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leads, media, properties } from "~/db/schema";
import { serializeJsonLd, listingJsonLd } from "~/features/properties/structured-data";
import { action as contactAction } from "~/routes/contact";
import { action as leadsAction } from "~/routes/crm-leads";
import { action as mediaAction } from "~/routes/crm-media";
import { action as propertiesAction } from "~/routes/crm-properties";
import { loader as listLoader } from "~/routes/properties";
import { listPage } from "../helpers/list-page";
import { loader as propertyLoader, meta as propertyMeta } from "~/routes/property";
import { action as bookingAction, loader as bookingLoader } from "~/routes/visit-booking";
import { loader as rootLoader } from "~/root";
import { createSignedInUser, insertProperty, settle, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * Malformed and hostile input reaches the actions and loaders as real Requests and is answered
 * 400 with a clear Portuguese message, never 500, and stores nothing (issue 9, findings 7 and 9):
 * unreadable bodies, wrong content types, control characters, repeated keys, huge numbers,
 * photo URLs that are not our uploads, any query string on the list. A bad row already stored
 * does not break the public pages.
 */

const BASE = "http://localhost:3000";
let ipCounter = 0;
const context = () => ({ cspNonce: "n", clientIp: `198.51.100.${++ipCounter % 250}` });
const MALFORMED = "Dados enviados em formato inválido. Recarregue a página e tente de novo.";
const NOT_UTF8 = "Alguns caracteres do texto enviado não puderam ser lidos (a codificação não é UTF-8). Digite o texto de novo e envie.";

type Answer = { status: number; body: { ok?: boolean; message?: string; error?: string; field?: string } };
async function answer(result: unknown): Promise<Answer> {
  if (result instanceof Response) return { status: result.status, body: await result.json().catch(() => ({})) };
  if (result && typeof result === "object" && "init" in result && "data" in result) {
    const { data, init } = result as { data: Answer["body"]; init: { status?: number } | null };
    return { status: init?.status ?? 200, body: data };
  }
  return { status: 200, body: result as Answer["body"] };
}

function request(path: string, init: { body?: BodyInit | Uint8Array; contentType?: string | null; cookie?: string; method?: string } = {}) {
  const headers = new Headers({ Origin: BASE });
  if (init.contentType) headers.set("Content-Type", init.contentType);
  if (init.cookie) headers.set("Cookie", init.cookie);
  return new Request(BASE + path, { method: init.method ?? "POST", headers, body: init.body as BodyInit | undefined });
}

const urlencoded = (fields: Record<string, string> | [string, string][]) => ({
  body: new URLSearchParams(fields).toString(),
  contentType: "application/x-www-form-urlencoded",
});

const validContact = { name: "Maria Silva", email: "maria@exemplo.com", phone: "(84) 99999-0000", message: "Quero visitar o apartamento." };
const validBooking = { full_name: "João Souza", phone: "(84) 98888-7777", email: "", notes: "" };

const validProperty = {
  codigo: "REQ-1",
  title: "Casa de teste com varanda",
  description: "Casa com varanda, quintal e garagem.",
  type: "casa",
  purpose: "venda",
  status: "disponivel",
  featured: false,
  price: "450.000,00",
  area: "120",
  bedrooms: "3",
  bathrooms: "2",
  parking_spaces: "1",
  neighborhood: "Tirol",
  city: "Natal",
  state: "RN",
  broker_partner: "",
  images: [] as string[],
};

describe.each(DATABASE_KINDS)("requests on %s", (kind) => {
  let test: TestRuntime;
  let staff: TestUser;

  beforeAll(async () => {
    test = await startTestRuntime(kind, { LEAD_LIMIT_PER_HOUR: "1000" });
    staff = await createSignedInUser(test.runtime, "admin");
  });
  afterAll(async () => {
    await test.stop();
  });

  const leadCount = async () => (await test.runtime.db.select({ n: count() }).from(leads))[0].n;
  const propertyCount = async () => (await test.runtime.db.select({ n: count() }).from(properties))[0].n;

  // Status and message. A refused lead also gives back what was typed (`values`, for the page
  // rendered again without JavaScript: database-faults.test.ts); here only that it carries no
  // control character is checked.
  const withoutValues = (result: Answer): Answer => {
    const { values, ...body } = (result.body ?? {}) as Answer["body"] & { values?: Record<string, string> };
    for (const value of Object.values(values ?? {})) expect(value).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
    return values ? { ...result, body } : result;
  };
  const contact = async (init: Parameters<typeof request>[1]) =>
    withoutValues(await answer(await settle(() => contactAction({ request: request("/contato", init), params: {}, context: context() } as never))));
  const booking = async (init: Parameters<typeof request>[1]) =>
    withoutValues(await answer(await settle(() => bookingAction({ request: request("/agendar-visita", init), params: {}, context: context() } as never))));
  const crm = async (run: (args: never) => Promise<unknown>, path: string, body: string | Uint8Array, contentType = "application/json") =>
    answer(await settle(() => run({ request: request(path, { body, contentType, cookie: staff.cookie }), params: {}, context: context() } as never)));

  describe("public forms: bodies that are not forms", () => {
    const cases: [string, Parameters<typeof request>[1]][] = [
      ["truncated multipart", { body: "--xyz\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nMaria", contentType: "multipart/form-data; boundary=xyz" }],
      ["multipart without a boundary", { body: "name=Maria", contentType: "multipart/form-data" }],
      ["JSON", { body: JSON.stringify(validContact), contentType: "application/json" }],
      ["invalid JSON", { body: "{\"name\":", contentType: "application/json" }],
      ["plain text", { body: "name=Maria", contentType: "text/plain" }],
      ["no content type", { body: "name=Maria", contentType: null }],
      ["XML", { body: "<lead><name>Maria</name></lead>", contentType: "application/xml" }],
    ];
    it.each(cases)("%s: 400 with a message, nothing stored", async (_name, init) => {
      const before = await leadCount();
      for (const send of [contact, booking]) {
        const result = await send(init);
        expect(result).toEqual({ status: 400, body: { ok: false, message: MALFORMED } });
      }
      expect(await leadCount()).toBe(before);
    });

    it("reads broken percent-encoding as text, and judges it", async () => {
      const before = await leadCount();
      // "%zz%" stays as typed (a valid name, and no UTF-8 problem): the e-mail is judged.
      const result = await contact({ body: "name=%zz%&email=%zz&phone=%&message=%%%%", contentType: "application/x-www-form-urlencoded" });
      expect(result).toEqual({ status: 400, body: { ok: false, message: "Email inválido" } });
      // A broken UTF-8 sequence is no text at all (issue 21).
      const broken = await contact({ body: "name=%zz%&email=%E0%A4%A&phone=%&message=%%%%", contentType: "application/x-www-form-urlencoded" });
      expect(broken).toEqual({ status: 400, body: { ok: false, message: NOT_UTF8 } });
      expect(await leadCount()).toBe(before);
    });

    it("refuses a key sent twice (which value would be meant?)", async () => {
      const before = await leadCount();
      const result = await contact(urlencoded([...Object.entries(validContact), ["name", "Outra Pessoa"]]));
      expect(result).toEqual({ status: 400, body: { ok: false, message: "Nome deve ter pelo menos 2 caracteres" } });
      expect(await leadCount()).toBe(before);
    });

    it("refuses a file where text was expected", async () => {
      const form = new FormData();
      for (const [key, value] of Object.entries(validContact)) if (key !== "message") form.append(key, value);
      form.append("message", new Blob(["Quero visitar o apartamento."]), "mensagem.txt");
      const result = await contact({ body: form });
      expect(result).toEqual({ status: 400, body: { ok: false, message: "Mensagem deve ter pelo menos 10 caracteres" } });
    });

    it("accepts a multipart form, as a browser may send it", async () => {
      const form = new FormData();
      for (const [key, value] of Object.entries(validContact)) form.append(key, value);
      expect((await contact({ body: form })).status).toBe(200);
    });
  });

  describe("public forms: control characters", () => {
    // (A lone surrogate cannot travel in a form: the browser's encoding makes it U+FFFD. See JSON below.)
    const controls = ["\u0000", "\u0007", "\u001b[31m", "\u007f", "\u0085", "\u2028"];

    it.each(controls.map((character) => [JSON.stringify(character), character]))("refuses %s in a name, a phone, an e-mail", async (_label, character) => {
      const before = await leadCount();
      expect(await contact(urlencoded({ ...validContact, name: `Maria${character}Silva` }))).toEqual({
        status: 400,
        body: { ok: false, message: "Nome contém caracteres inválidos" },
      });
      expect((await contact(urlencoded({ ...validContact, phone: `(84) 99999${character}-0000` }))).status).toBe(400);
      expect((await contact(urlencoded({ ...validContact, email: `maria${character}@exemplo.com` }))).status).toBe(400);
      expect(await booking(urlencoded({ ...validBooking, full_name: `João${character}Souza` }))).toEqual({
        status: 400,
        body: { ok: false, message: "Nome contém caracteres inválidos" },
      });
      expect(await leadCount()).toBe(before);
    });

    it("refuses control characters in a message, but keeps its line breaks and tabs", async () => {
      expect(await contact(urlencoded({ ...validContact, message: "Olá,\u0000 quero visitar." }))).toEqual({
        status: 400,
        body: { ok: false, message: "Mensagem contém caracteres inválidos" },
      });
      expect(await booking(urlencoded({ ...validBooking, notes: "Pela manhã\u001b[2J" }))).toEqual({
        status: 400,
        body: { ok: false, message: "Mensagem contém caracteres inválidos" },
      });
      const message = "Olá!\r\nQuero visitar:\n\t- sábado\n\t- domingo";
      expect((await contact(urlencoded({ ...validContact, name: "Maria Quebra-Linha", message }))).status).toBe(200);
      const [saved] = await test.runtime.db.select({ notes: leads.notes }).from(leads).where(eq(leads.full_name, "Maria Quebra-Linha"));
      expect(saved.notes).toBe(message);
    });

    it("keeps the spec's messages for huge text", async () => {
      expect((await contact(urlencoded({ ...validContact, name: "M".repeat(100_000) }))).body.message).toBe("Nome muito longo");
      expect((await contact(urlencoded({ ...validContact, message: "m".repeat(100_000) }))).body.message).toBe("Mensagem muito longa");
      expect((await booking(urlencoded({ ...validBooking, notes: "n".repeat(501) }))).body.message).toBe("Mensagem muito longa");
      expect((await contact(urlencoded({ ...validContact, email: `${"e".repeat(300)}@exemplo.com` }))).body.message).toBe("Email muito longo");
    });

    it("accepts any language's letters", async () => {
      for (const name of ["José da Silva Ñandú", "Zoë Müller", "李小龙", "Ngozi Ọkọnkwọ", "Ana 😀"]) {
        expect((await contact(urlencoded({ ...validContact, name }))).status, name).toBe(200);
      }
    });
  });

  describe("bodies that are not UTF-8 (issue 21): 400 with a clear message, nothing stored", () => {
    // Stored as "Jos\uFFFD" (and mailed so) before: the body decoder replaced what it could not read.
    const latin1 = (text: string) => Buffer.from(text, "latin1");
    const multipart = (fields: [string, Buffer, string?][]) => {
      const parts = fields.map(([name, value, filename]) =>
        Buffer.concat([
          Buffer.from(`--limite\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"\r\nContent-Type: application/octet-stream` : ""}\r\n\r\n`),
          value,
          Buffer.from("\r\n"),
        ]),
      );
      return { body: Buffer.concat([...parts, Buffer.from("--limite--\r\n")]), contentType: "multipart/form-data; boundary=limite" };
    };
    const utf8Fields = (values: Record<string, string>) => Object.entries(values).map(([name, value]): [string, Buffer] => [name, Buffer.from(value)]);

    const bad: [string, Parameters<typeof request>[1]][] = [
      ["an escaped Latin-1 byte (%E9)", { body: "name=Jos%E9+Silva&email=jose%40exemplo.com&phone=%2884%29+99999-0000&message=Quero+visitar+o+apartamento.", contentType: "application/x-www-form-urlencoded" }],
      ["a sequence cut short", { body: "name=Maria+Silva&email=maria%40exemplo.com&phone=%2884%29+99999-0000&message=Quero+visitar+o+apartamento+%E2%82", contentType: "application/x-www-form-urlencoded" }],
      ["an encoded surrogate (CESU-8)", { body: "name=Maria+%ED%A0%80&email=maria%40exemplo.com&phone=%2884%29+99999-0000&message=Quero+visitar+o+apartamento.", contentType: "application/x-www-form-urlencoded; charset=UTF-8" }],
      ["raw Latin-1 bytes in an urlencoded body", { body: latin1("name=José Silva&email=jose@exemplo.com&phone=(84) 99999-0000&message=Quero visitar o apartamento."), contentType: "application/x-www-form-urlencoded" }],
      ["Latin-1 bytes in a multipart text field", multipart([...utf8Fields({ ...validContact, name: "x" }).filter(([name]) => name !== "name"), ["name", latin1("José Silva")]])],
    ];
    it.each(bad)("%s", async (_name, init) => {
      const before = await leadCount();
      expect(await contact(init)).toEqual({ status: 400, body: { ok: false, message: NOT_UTF8 } });
      expect(await leadCount()).toBe(before);
    });

    it("the visit booking form too, urlencoded and multipart", async () => {
      const before = await leadCount();
      expect(await booking({ body: "full_name=Jo%E3o+Souza&phone=%2884%29+98888-7777", contentType: "application/x-www-form-urlencoded" })).toEqual({ status: 400, body: { ok: false, message: NOT_UTF8 } });
      expect(await booking(multipart([["full_name", latin1("João Souza")], ["phone", Buffer.from("(84) 98888-7777")]]))).toEqual({ status: 400, body: { ok: false, message: NOT_UTF8 } });
      expect(await leadCount()).toBe(before);
    });

    it("accepts what is UTF-8: a typed replacement character, any language, and a file part's own bytes", async () => {
      expect((await contact(urlencoded({ ...validContact, name: "Maria \uFFFD Silva" }))).status).toBe(200);
      expect((await contact(multipart(utf8Fields({ ...validContact, name: "Zoë Ñandú 李" })))).status).toBe(200);
      // A file is no text field (and the form leaves it out): its bytes are its own business.
      const withFile = multipart([...utf8Fields({ ...validContact, name: "Maria Anexo" }), ["anexo", Buffer.from([0xff, 0xfe, 0x00, 0xe9]), "foto.bin"]]);
      expect((await contact(withFile)).status).toBe(200);
    });

    it("the CRM's forms: JSON, urlencoded and multipart", async () => {
      const before = await leadCount();
      const values = { full_name: "Lead Codificação", phone: "(84) 98888-7777", interest_type: "comprar", origin: "site", status: "novo" };
      const expected = { status: 400, body: { ok: false, message: NOT_UTF8 } };
      // JSON.stringify leaves "ç" as it is: in Latin-1 it is the byte E7, no UTF-8.
      expect(await crm(leadsAction, "/crm/leads", latin1(JSON.stringify({ intent: "create", values })))).toEqual(expected);
      expect(await crm(leadsAction, "/crm/leads", "intent=create&full_name=Lead+Codifica%E7%E3o&phone=%2884%29+98888-7777&interest_type=comprar&origin=site&status=novo", "application/x-www-form-urlencoded")).toEqual(expected);
      const form = multipart([["intent", Buffer.from("create")], ["full_name", latin1("Lead Codificação")], ["phone", Buffer.from("(84) 98888-7777")], ["interest_type", Buffer.from("comprar")], ["origin", Buffer.from("site")], ["status", Buffer.from("novo")]]);
      expect(await crm(leadsAction, "/crm/leads", form.body, form.contentType)).toEqual(expected);
      expect(await crm(propertiesAction, "/crm/imoveis", latin1(JSON.stringify({ intent: "create", values: { ...validProperty, codigo: "UTF-1", title: "Casa de teste no Tirol, ótima" } })))).toEqual(expected);
      expect(await leadCount()).toBe(before);
      // The same, as UTF-8: stored; with a byte order mark in front too (as request.json() reads it).
      expect((await crm(leadsAction, "/crm/leads", JSON.stringify({ intent: "create", values }))).status).toBe(200);
      const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ intent: "create", values: { ...values, full_name: "Lead Com BOM" } }))]);
      expect((await crm(leadsAction, "/crm/leads", withBom)).status).toBe(200);
    });
  });

  describe("CRM: bodies, numbers, photo URLs", () => {
    const create = (values: unknown) => crm(propertiesAction, "/crm/imoveis", JSON.stringify({ intent: "create", values }));

    it("answers malformed JSON and non-objects with 400", async () => {
      const before = await propertyCount();
      for (const body of ["{", "null", "[]", "42", "\"texto\"", "{\"intent\":\"create\",\"values\":\"x\"}", "{\"intent\":\"create\",\"values\":[1,2]}"]) {
        const result = await crm(propertiesAction, "/crm/imoveis", body);
        expect(result.status, body).toBe(400);
        expect(result.body.message, body).toMatch(/^(Ação desconhecida|Dados inválidos)$/);
      }
      expect((await crm(propertiesAction, "/crm/imoveis", "intent=create", "multipart/form-data; boundary=x")).status).toBe(400);
      expect((await crm(leadsAction, "/crm/leads", "{\"intent\":")).status).toBe(400);
      expect(await propertyCount()).toBe(before);
    });

    it("refuses counts, areas and prices beyond sane maxima with clear messages", async () => {
      const before = await propertyCount();
      const cases: [Partial<typeof validProperty> | Record<string, unknown>, string][] = [
        [{ bedrooms: "99999999999" }, "Quantidade de quartos deve ser no máximo 999"],
        [{ bedrooms: 1000 }, "Quantidade de quartos deve ser no máximo 999"],
        [{ bathrooms: "1e9" }, "Quantidade de banheiros deve ser no máximo 999"],
        [{ parking_spaces: "Infinity" }, "Quantidade de vagas inválida"],
        [{ bedrooms: "-1" }, "Quantidade de quartos inválida"],
        [{ bedrooms: true }, "Quantidade de quartos inválida"],
        [{ area: "99999999999" }, "Área deve ser no máximo 10.000.000 m²"],
        [{ area: "NaN" }, "Área inválida"],
        [{ price: "9.999.999.999.999,00" }, "Preço deve ser no máximo R$ 1.000.000.000"],
        [{ price: 1e300 }, "Preço deve ser no máximo R$ 1.000.000.000"],
        [{ price: "-5" }, "Preço inválido"],
        [{ price: { valor: 1 } }, "Preço inválido"],
        [{ featured: 7 }, "Destaque inválido"],
        [{ title: "Casa\u0000 com varanda" }, "Título contém caracteres inválidos"],
        [{ codigo: "AB\nCD" }, "Código contém caracteres inválidos"],
        [{ neighborhood: "Tirol\u001b" }, "Bairro contém caracteres inválidos"],
        [{ state: "\u0000\u0000" }, "Estado deve ser a sigla com 2 letras, como RN"],
        [{ state: 12 }, "Estado deve ter 2 caracteres"],
        [{ broker_partner: "Parceiro\u0007" }, "Parceiro contém caracteres inválidos"],
      ];
      for (const [patch, message] of cases) {
        const result = await create({ ...validProperty, codigo: `NUM-${Object.keys(patch)[0]}`, ...patch });
        // The refused field is named, so the dialog can take the broker to it.
        expect(result, JSON.stringify(patch)).toEqual({ status: 400, body: { ok: false, message, field: Object.keys(patch)[0] } });
      }
      expect(await propertyCount()).toBe(before);
    });

    it("accepts the maxima themselves and multi-line descriptions", async () => {
      const result = await create({
        ...validProperty,
        codigo: "MAX-1",
        bedrooms: "999",
        area: "10000000",
        price: "1.000.000.000,00",
        description: "Primeira linha.\nSegunda linha\tcom tab.",
      });
      expect(result.status).toBe(200);
      const [row] = await test.runtime.db.select().from(properties).where(eq(properties.codigo, "MAX-1"));
      expect(row).toMatchObject({ bedrooms: 999, area: 10_000_000, price: 1_000_000_000 });
    });

    it("refuses photo URLs that are not our own uploads", async () => {
      const before = await propertyCount();
      for (const images of [
        ["http://["],
        ["https://example.com/foto.jpg"],
        ["javascript:alert(1)"],
        ["//example.com/media/0b7f3c2e-1a2b-4c3d-9e8f-001122334455/800.webp"],
        ["/media/../../etc/passwd"],
        ["/media/0b7f3c2e-1a2b-4c3d-9e8f-001122334455/og.jpg"],
        ["/media/0b7f3c2e-1a2b-4c3d-9e8f-001122334455/800.webp?x=1"],
        [42],
        "/media/0b7f3c2e-1a2b-4c3d-9e8f-001122334455/800.webp",
      ]) {
        const result = await create({ ...validProperty, codigo: "FOTO-RUIM", images });
        expect(result, JSON.stringify(images)).toEqual({
          status: 400,
          body: { ok: false, message: "Foto inválida: use apenas fotos enviadas por este formulário", field: "images" },
        });
      }
      expect(await propertyCount()).toBe(before);
      // A well-formed URL passes once the photo exists (issue 22: only uploaded photos are kept).
      await test.runtime.db.insert(media).values({ id: "0b7f3c2e-1a2b-4c3d-9e8f-001122334455", width: 800, height: 600, bytes: 1 }).onConflictDoNothing();
      const ok = await create({ ...validProperty, codigo: "FOTO-BOA", images: ["/media/0b7f3c2e-1a2b-4c3d-9e8f-001122334455/800.webp"] });
      expect(ok.status).toBe(200);
    });

    it("refuses control characters in a lead's notes, keeps line breaks", async () => {
      const lead = (notes: unknown) =>
        crm(leadsAction, "/crm/leads", JSON.stringify({ intent: "create", values: { full_name: "Lead Notas", phone: "(84) 98888-7777", interest_type: "comprar", origin: "site", status: "novo", notes } }));
      expect(await lead("Ligar\u0000 amanhã")).toEqual({ status: 400, body: { ok: false, message: "Notas contêm caracteres inválidos" } });
      expect(await lead(123)).toEqual({ status: 400, body: { ok: false, message: "Notas contêm caracteres inválidos" } });
      // JSON can carry half a character (a lone UTF-16 surrogate), which no database should get.
      expect(await lead("Ligar \ud800 amanhã")).toEqual({ status: 400, body: { ok: false, message: "Notas contêm caracteres inválidos" } });
      expect((await lead("Ligar amanhã.\nDepois das 14h.")).status).toBe(200);
    });

    it("answers a broken upload with 400, never 500", async () => {
      const broken = await crm(mediaAction, "/crm/midia", "--x\r\nContent-Disposition: form-data; name=\"file\"", "multipart/form-data; boundary=x");
      expect(broken).toEqual({ status: 400, body: { error: "envio inválido" } });
      const noFile = await crm(mediaAction, "/crm/midia", "file=abc", "application/x-www-form-urlencoded");
      expect(noFile.status).toBe(400);
      const badJson = await crm(mediaAction, "/crm/midia", "{", "application/json");
      expect(badJson).toEqual({ status: 400, body: { error: "Pedido inválido" } });
    });
  });

  describe("public pages with a bad row stored before the checks", () => {
    const good = "/media/0b7f3c2e-1a2b-4c3d-9e8f-001122334455/800.webp";
    let id: string;
    beforeAll(async () => {
      const row = await insertProperty(test.runtime, {
        codigo: "LEGADO-1",
        neighborhood: "Bairro Legado",
        images: ["http://[", "javascript:alert(1)", good, "https://example.com/x.jpg"],
      });
      id = row.id;
    });

    it("shows only our own photos on the property page, and its preview tags build", async () => {
      const result = (await propertyLoader({ request: request(`/imoveis/${id}`, { method: "GET" }), params: { id }, context: context() } as never)) as {
        property: Parameters<typeof listingJsonLd>[0];
      };
      expect(result.property.images).toEqual([good]);
      expect(() => serializeJsonLd(listingJsonLd(result.property, BASE))).not.toThrow();
      const root = await rootLoader();
      const tags = propertyMeta({ data: result, matches: [{ id: "root", data: root }] } as never) as { property?: string; content?: string }[];
      expect(tags.find((tag) => tag.property === "og:image")?.content).toBe(`${root.publicUrl}/media/0b7f3c2e-1a2b-4c3d-9e8f-001122334455/og.jpg`);
    });

    it("gives its card no cover rather than a foreign one", async () => {
      const list = listPage(await listLoader({ request: request("/imoveis?bairro=Legado", { method: "GET" }), params: {}, context: context() } as never));
      expect(list.properties.map((card) => [card.id, card.cover])).toEqual([[id, null]]);
    });
  });

  describe("the list's query string", () => {
    const list = async (query: string) =>
      listPage(await listLoader({ request: new Request(`${BASE}/imoveis?${query}`), params: {}, context: context() } as never));

    it("reads control characters in the neighbourhood as spaces, so the search still works", async () => {
      await insertProperty(test.runtime, { codigo: "QS-1", neighborhood: "Ponta Negra" });
      const found = await list("bairro=Ponta%00Negra");
      expect(found.filters.bairro).toBe("Ponta Negra");
      expect(found.properties.map((card) => card.neighborhood)).toContain("Ponta Negra");
    });

    it("never fails, whatever the query", async () => {
      for (const query of [
        "preco_min=1e400&preco_max=-1e400",
        "preco_min=NaN&preco_max=Infinity",
        "quartos[]=1&quartos[]=2&tipo=casa&tipo=apartamento",
        "bairro=" + "%F0%9F%98%80".repeat(60),
        "bairro=" + "a".repeat(100_000),
        "bairro=%ED%A0%80",
        "bairro=%",
        "tipo=__proto__&finalidade=constructor",
        "vagas=99999999999999999999&quartos=4%2B",
        "%00=%00&&&==&",
      ]) {
        const result = await list(query);
        expect(Array.isArray(result.properties), query).toBe(true);
        expect(result.filters.bairro.length).toBeLessThanOrEqual(100);
      }
    });

    it("books a visit page for any property parameter", async () => {
      for (const value of ["%00", "nao-e-id", "0b7f3c2e-1a2b-4c3d-9e8f-001122334455", "'; drop table leads; --"]) {
        const result = await bookingLoader({ request: new Request(`${BASE}/agendar-visita?imovel=${value}`), params: {}, context: context() } as never);
        expect(result.property).toBeNull();
      }
    });
  });
});
