import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leads, media, properties, session, user, user_roles } from "~/db/schema";
import { storeImage } from "~/features/media/pipeline.server";
import { mediaIdFromUrl } from "~/features/media/urls";
import { getDashboardCounters } from "~/features/dashboard/counters.server";
import { startOfMonthInBrokerZone } from "~/lib/format";
import { action as authAction } from "~/routes/auth";
import { action as mediaAction } from "~/routes/crm-media";
import { action as leadsAction, loader as leadsLoader } from "~/routes/crm-leads";
import { action as propertiesAction } from "~/routes/crm-properties";
import { action as signOutAction } from "~/routes/crm-sign-out";
import { cookieFrom, createSignedInUser, insertLead, insertProperty, makeRequest, settle, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

const context = { cspNonce: "n", clientIp: "192.0.2.20" };
type Answer = { ok: boolean; message: string };
const answer = (result: unknown): { status: number; body: Answer } =>
  result && typeof result === "object" && "init" in result
    ? { status: (result as { init: { status: number } }).init.status, body: (result as unknown as { data: Answer }).data }
    : { status: 200, body: result as Answer };

const validProperty = {
  codigo: "ap-nova-1",
  title: "Apartamento novo no Tirol",
  description: "Apartamento com varanda e vista para o parque.",
  type: "apartamento",
  purpose: "venda",
  status: "disponivel",
  featured: false,
  price: "1.250.000,00",
  area: "0",
  bedrooms: "3",
  bathrooms: "",
  parking_spaces: "2",
  neighborhood: "Tirol",
  city: "Natal",
  state: "RN",
  broker_partner: "Parceira Interna",
  images: [] as string[],
};

describe.each(DATABASE_KINDS)("CRM on %s", (kind) => {
  let test: TestRuntime;
  let staff: TestUser;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    staff = await createSignedInUser(test.runtime, "corretor");
  });
  afterAll(async () => {
    await test.stop();
  });

  const post = (run: (args: never) => Promise<unknown>, path: string, json: unknown) =>
    settle(() =>
      run({
        request: new Request(`http://localhost:3000${path}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Cookie: staff.cookie, Origin: "http://localhost:3000" },
          body: JSON.stringify(json),
        }),
        params: {},
        context,
      } as never),
    );

  const photo = async (color: string) =>
    (await storeImage(test.runtime, await sharp({ create: { width: 400, height: 300, channels: 3, background: color } }).jpeg().toBuffer())).url;
  const stored = async (url: string) => (await test.runtime.storage.get(`${mediaIdFromUrl(url)}/400.webp`)) !== null;

  describe("properties", () => {
    it("creates a property: code in uppercase, masked price read as reais, empty or zero numbers as null", async () => {
      const result = answer(await post(propertiesAction, "/crm/imoveis", { intent: "create", values: validProperty }));
      expect(result.body).toEqual({ ok: true, message: "Imóvel cadastrado com sucesso!" });
      const [row] = await test.runtime.db.select().from(properties).where(eq(properties.codigo, "AP-NOVA-1"));
      expect(row).toMatchObject({ price: 1250000, area: null, bedrooms: 3, bathrooms: null, parking_spaces: 2, broker_partner: "Parceira Interna" });
    });

    it("says 'Código já cadastrado' for a code in use, and saves nothing", async () => {
      const before = await test.runtime.db.select({ n: count() }).from(properties);
      const result = answer(await post(propertiesAction, "/crm/imoveis", { intent: "create", values: { ...validProperty, codigo: "AP-NOVA-1" } }));
      // The field is named: the dialog takes the broker to it.
      expect(result).toEqual({ status: 409, body: { ok: false, message: "Código já cadastrado", field: "codigo" } });
      expect(await test.runtime.db.select({ n: count() }).from(properties)).toEqual(before);
    });

    it("answers the first failing rule, as the form would", async () => {
      const result = answer(await post(propertiesAction, "/crm/imoveis", { intent: "create", values: { ...validProperty, codigo: "X", description: "curta" } }));
      expect(result).toEqual({ status: 400, body: { ok: false, message: "Descrição deve ter pelo menos 10 caracteres", field: "description" } });
    });

    it("deletes a photo taken out of a listing only after the edit is saved", async () => {
      const [kept, removed] = [await photo("#aa3333"), await photo("#33aa33")];
      const property = await insertProperty(test.runtime, { codigo: "FOTOS-1", images: [kept, removed] });

      // A failed save (the code of another listing) keeps every photo.
      await insertProperty(test.runtime, { codigo: "OCUPADO-1" });
      const failed = answer(
        await post(propertiesAction, "/crm/imoveis", { intent: "update", id: property.id, values: { ...validProperty, codigo: "OCUPADO-1", images: [kept] } }),
      );
      expect(failed.body.message).toBe("Código já cadastrado");
      expect(await stored(removed)).toBe(true);

      const saved = answer(
        await post(propertiesAction, "/crm/imoveis", { intent: "update", id: property.id, values: { ...validProperty, codigo: "FOTOS-1", images: [kept] } }),
      );
      expect(saved.body).toEqual({ ok: true, message: "Imóvel atualizado com sucesso!" });
      expect(await stored(kept)).toBe(true);
      expect(await stored(removed)).toBe(false);
      const [row] = await test.runtime.db.select({ images: properties.images }).from(properties).where(eq(properties.id, property.id));
      expect(row.images).toEqual([kept]);
    });

    it("deletes a property's photos with it", async () => {
      const cover = await photo("#3333aa");
      const property = await insertProperty(test.runtime, { images: [cover] });
      const result = answer(await post(propertiesAction, "/crm/imoveis", { intent: "delete", id: property.id }));
      expect(result.body).toEqual({ ok: true, message: "Imóvel excluído com sucesso!" });
      expect(await stored(cover)).toBe(false);
      const [{ left }] = await test.runtime.db.select({ left: count() }).from(media).where(eq(media.id, mediaIdFromUrl(cover)!));
      expect(left).toBe(0);
    });

    it("cleans up uploads of a cancelled dialog, never a photo a listing shows", async () => {
      const orphan = await photo("#999999");
      const inUse = await photo("#123456");
      await insertProperty(test.runtime, { images: [inUse] });
      await post(mediaAction, "/crm/midia", { intent: "discard", urls: [orphan, inUse] });
      expect(await stored(orphan)).toBe(false);
      expect(await stored(inUse)).toBe(true);
    });

    it("refuses an upload that is not an image, adding nothing", async () => {
      const before = await test.runtime.db.select({ n: count() }).from(media);
      const body = new FormData();
      body.append("file", new Blob(["<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"], { type: "image/jpeg" }), "x.jpg");
      const result = await settle(() =>
        mediaAction({
          request: new Request("http://localhost:3000/crm/midia", { method: "POST", body, headers: { Cookie: staff.cookie } }),
          params: {},
          context,
        } as never),
      );
      const { status, body: payload } = answer(result) as unknown as { status: number; body: { error: string } };
      expect(status).toBe(400);
      expect(payload.error).toMatch(/formato não suportado/);
      expect(await test.runtime.db.select({ n: count() }).from(media)).toEqual(before);
    });
  });

  describe("leads", () => {
    const leadValues = { full_name: "Joana Prado", phone: "(84) 97777-6666", email: "", interest_type: "vender", property_type: "ponto_comercial", origin: "indicacao", status: "novo", notes: "" };

    it("creates, moves through any status in any order, filters by status, deletes", async () => {
      const created = answer(await post(leadsAction, "/crm/leads", { intent: "create", values: leadValues }));
      expect(created.body).toEqual({ ok: true, message: "Lead cadastrado com sucesso!" });
      const [lead] = await test.runtime.db.select().from(leads).where(eq(leads.full_name, "Joana Prado"));
      expect(lead).toMatchObject({ email: null, notes: null, property_type: "ponto_comercial", origin: "indicacao" });

      for (const status of ["convertido", "novo", "perdido", "em_atendimento"]) {
        // A lead lost says why (issue 24, item 3; decision 027).
        const loss = status === "perdido" ? { lost_reason: "Preço" } : {};
        const updated = answer(await post(leadsAction, "/crm/leads", { intent: "update", id: lead.id, values: { ...leadValues, status, ...loss } }));
        expect(updated.body).toEqual({ ok: true, message: "Lead atualizado com sucesso!" });
      }
      const filtered = await leadsLoader({ request: makeRequest("/crm/leads?status=em_atendimento", { cookie: staff.cookie }), params: {}, context } as never);
      expect(filtered.leads.map((row) => row.id)).toEqual([lead.id]);

      const deleted = answer(await post(leadsAction, "/crm/leads", { intent: "delete", id: lead.id }));
      expect(deleted.body).toEqual({ ok: true, message: "Lead excluído com sucesso!" });
      const gone = answer(await post(leadsAction, "/crm/leads", { intent: "delete", id: lead.id }));
      expect(gone.body).toEqual({ ok: false, message: "Erro ao excluir lead" });
    });

    it("refuses notes over 1000 characters with 'Notas muito longas'", async () => {
      const result = answer(await post(leadsAction, "/crm/leads", { intent: "create", values: { ...leadValues, notes: "x".repeat(1001) } }));
      expect(result).toEqual({ status: 400, body: { ok: false, message: "Notas muito longas" } });
    });

    it("shows the property a booking was for", async () => {
      const property = await insertProperty(test.runtime, { codigo: "VISITA-1" });
      await insertLead(test.runtime, { full_name: "Quem Visita", property_id: property.id });
      const data = await leadsLoader({ request: makeRequest("/crm/leads", { cookie: staff.cookie }), params: {}, context } as never);
      expect(data.leads.find((row) => row.full_name === "Quem Visita")?.property).toEqual({ id: property.id, codigo: "VISITA-1", title: property.title });
    });
  });

  it("counts the dashboard exactly, with 'this month' starting at midnight in Natal", async () => {
    const db = test.runtime.db;
    await db.delete(leads);
    const now = new Date("2026-03-15T12:00:00Z");
    const monthStart = startOfMonthInBrokerZone(now);
    await insertLead(test.runtime, { created_at: new Date(monthStart.getTime() + 60_000) });
    await insertLead(test.runtime, { created_at: new Date(monthStart.getTime() - 60_000), status: "convertido" });
    await insertLead(test.runtime, { created_at: new Date(monthStart.getTime() + 3_600_000), status: "convertido" });
    const counters = await getDashboardCounters(db, now);
    const [{ total }] = await db.select({ total: count() }).from(properties);
    expect(counters).toEqual({ totalProperties: total, totalLeads: 3, convertedLeads: 2, newLeadsThisMonth: 2 });
  });

  describe("sign-in, sign-up and sign-out", () => {
    const signIn = (email: string, password: string, ip = "203.0.113.50") =>
      settle(() =>
        authAction({ request: makeRequest("/auth", { form: { intent: "login", email, password } }), params: {}, context: { ...context, clientIp: ip } } as never),
      );

    it("signs staff in with a session cookie and sends them to /crm", async () => {
      const result = (await signIn(staff.email, staff.password)) as Response;
      expect(result.status).toBe(302);
      expect(result.headers.get("Location")).toBe("/crm");
      expect(cookieFrom(result.headers)).toMatch(/session_token=/);
      expect(result.headers.get("Set-Cookie")).toMatch(/HttpOnly/i);
    });

    it("answers a wrong password in Portuguese, and stops an address after 5 tries at one account without locking the owner out", async () => {
      const victim = await createSignedInUser(test.runtime, "corretor");
      const wrong = answer(await signIn(victim.email, "senha-errada", "203.0.113.60"));
      expect(wrong).toEqual({ status: 400, body: expect.objectContaining({ error: "Email ou senha inválidos" }) });
      for (let i = 0; i < 4; i++) await signIn(victim.email, "senha-errada", "203.0.113.60");
      const blocked = answer(await signIn(victim.email, victim.password, "203.0.113.60"));
      expect(blocked.status).toBe(429);
      expect((blocked.body as unknown as { error: string }).error).toBe("Muitas tentativas de login. Aguarde 15 minutos e tente novamente.");
      // The owner, from another address, still gets in (issue 9, finding 3).
      expect(((await signIn(victim.email, victim.password, "203.0.113.99")) as Response).status).toBe(302);
    });

    it("slows an address down after 20 failed sign-ins, whatever accounts it tries", async () => {
      const ip = "203.0.113.200";
      for (let i = 0; i < 20; i++) expect(answer(await signIn(`alvo${i}@exemplo.com`, "chute-errado", ip)).status).toBe(400);
      const blocked = answer(await signIn(staff.email, staff.password, ip));
      expect(blocked.status).toBe(429);
      // Another address signs in as usual.
      expect(((await signIn(staff.email, staff.password, "203.0.113.201")) as Response).status).toBe(302);
    });

    it("signs a new user up with no role and no session until the e-mail is confirmed", async () => {
      const result = await settle(() =>
        authAction({
          request: makeRequest("/auth", { form: { intent: "cadastro", fullName: "Nova Pessoa", email: "nova@exemplo.com", password: "segredo-1" } }),
          params: {},
          context,
        } as never),
      );
      expect(result).not.toBeInstanceOf(Response);
      expect(result).toMatchObject({ signedUp: true, email: "nova@exemplo.com" });
      const [created] = await test.runtime.db.select().from(user).where(eq(user.email, "nova@exemplo.com"));
      expect(created.name).toBe("Nova Pessoa");
      expect(created.emailVerified).toBe(false);
      expect(await test.runtime.db.select().from(session).where(eq(session.userId, created.id))).toEqual([]);
      const roles = await test.runtime.db.select().from(user_roles).where(eq(user_roles.user_id, created.id));
      expect(roles).toEqual([]);
    });

    it("'Sair' ends every session of the user, on every device", async () => {
      const person = await createSignedInUser(test.runtime, "corretor");
      const otherDevice = cookieFrom(
        (await test.runtime.auth.api.signInEmail({ body: { email: person.email, password: person.password }, returnHeaders: true })).headers,
      );
      const [{ before }] = await test.runtime.db.select({ before: count() }).from(session).where(eq(session.userId, person.id));
      expect(before).toBe(2);
      const result = (await settle(() =>
        signOutAction({ request: makeRequest("/crm/sair", { form: {}, cookie: person.cookie }), params: {}, context } as never),
      )) as Response;
      expect(result.headers.get("Location")).toBe("/auth");
      const [{ after }] = await test.runtime.db.select({ after: count() }).from(session).where(eq(session.userId, person.id));
      expect(after).toBe(0);
      expect(await test.runtime.auth.api.getSession({ headers: new Headers({ Cookie: otherDevice }) })).toBeNull();
    });
  });
});
