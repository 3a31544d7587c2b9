import fs from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { and, count, eq, inArray, type SQL, sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log, lead_events, leads, outbox, settings } from "~/db/schema";
import { LEAD_ALERT_KIND } from "~/features/mail/lead-alert.server";
import { PORTAL_LEAD_MESSAGES, portalPhone } from "~/features/portals/portal-lead-input";
import { setWebhookSecret } from "~/features/portals/portal-settings.server";
import { personCsv, personJson } from "~/features/privacy/export-document.server";
import { loadPerson } from "~/features/privacy/person.server";
import { SETTING_KEYS } from "~/features/settings/keys";
import { MESSAGES } from "~/lib/validation";
import * as crmLeadsRoute from "~/routes/crm-leads";
import * as webhookRoute from "~/routes/portal-leads-webhook";
import { loader as reportExportLoader } from "~/routes/crm-reports-export";
import { loader as reportsLoader } from "~/routes/crm-reports";
import { loader as leadLoader } from "~/routes/crm-lead";
import { createApp } from "../../server/app";
import { context } from "../helpers/authorization";
import { createSignedInUser, insertProperty, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { resourceRoutesBuild } from "../helpers/server-build";

/**
 * The portals' lead webhook (issue 13), POSTed through the real HTTP server (server/app.ts:
 * origin check, body limit, no-store) to the real route, on both databases: a valid lead (origin
 * 'portal', the portal's name and temperature, the listing linked by código, the new-lead alert in
 * the outbox, a live event), a retry and five simultaneous copies (one row, one alert), wrong or
 * missing credentials (401, nothing stored), malformed bodies (400 with the reason, nothing
 * stored), an unknown listing (stored unlinked), a sender that adds an Origin header (served),
 * a browser's cross-site post (403; to the CRM too), and no per-address limit. The portal leads
 * then show in the reports, one row per portal.
 */

const SECRET = "segredo-do-webhook-de-teste-123";
const NOTIFY = ["corretor@teste.com.br", "assistente@teste.com.br"];
const PUBLIC_URL = "http://localhost:3000";

/** The production server around a build with the webhook's route and the CRM's leads (and a root with nothing). */
function webhookApp(clientDir: string) {
  const build = resourceRoutesBuild({
    "routes/portal-leads-webhook": { path: "api/portais/leads", module: webhookRoute },
    "routes/crm-leads": { path: "crm/leads", module: crmLeadsRoute },
  }, clientDir);
  return createApp({ build, clientDir, publicUrl: PUBLIC_URL, trustProxy: false, pageCacheMaxBytes: 0 });
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

let leadCounter = 0;
/** A lead as the portals send it (their manual's example, with our listing's código). */
function portalLead(overrides: Record<string, unknown> = {}) {
  leadCounter++;
  return {
    leadOrigin: "VivaReal",
    timestamp: "2026-10-23T15:50:30.619Z",
    originLeadId: `59ee0fc6e4b043e1b2a6d${String(leadCounter).padStart(3, "0")}`,
    originListingId: "87027856",
    clientListingId: "ap-portal-1",
    name: "Nome Consumidor",
    email: "nome.consumidor@email.com",
    ddd: "84",
    phone: "999991234",
    phoneNumber: "84999991234",
    message: "Olá, tenho interesse neste imóvel. Aguardo o contato. Obrigado.",
    temperature: "Alta",
    transactionType: "RENT",
    extraData: { leadType: "CONTACT_FORM" },
    ...overrides,
  };
}

describe("portalPhone", () => {
  it("builds the site's phone format from ddd + phone, and understands the variants", () => {
    expect(portalPhone({ ddd: "84", phone: "999991234" })).toBe("(84) 99999-1234");
    expect(portalPhone({ ddd: "84", phone: "32221234" })).toBe("(84) 3222-1234");
    expect(portalPhone({ ddd: "(84)", phone: "99999-1234" })).toBe("(84) 99999-1234");
    expect(portalPhone({ ddd: "84", phone: "84999991234" })).toBe("(84) 99999-1234");
    expect(portalPhone({ ddd: "84", phone: "+55 84 99999-1234" })).toBe("(84) 99999-1234");
    expect(portalPhone({ phone: "84999991234" })).toBe("(84) 99999-1234");
    expect(portalPhone({ phoneNumber: "5584999991234" })).toBe("(84) 99999-1234");
    expect(portalPhone({})).toBeNull();
    expect(portalPhone({ ddd: "84" })).toBeNull();
    expect(portalPhone({ ddd: "84", phone: "123" })).toBe("invalid");
    expect(portalPhone({ ddd: "84", phone: "899991234" })).toBe("invalid");
    expect(portalPhone({ ddd: "4", phone: "999991234" })).toBe("invalid");
  });
});

describe.each(DATABASE_KINDS)("portal lead webhook on %s", (kind) => {
  let test: TestRuntime;
  let app: ReturnType<typeof webhookApp>;
  let admin: TestUser;
  let propertyId: string;
  const db = () => test.runtime.db;

  beforeAll(async () => {
    // A low site limit: the portals must not be held to it.
    test = await startTestRuntime(kind, { PORTAL_WEBHOOK_SECRET: SECRET, LEAD_LIMIT_PER_HOUR: "2" });
    const clientDir = path.join(test.dataDir, "client");
    fs.mkdirSync(clientDir, { recursive: true });
    app = webhookApp(clientDir);
    admin = await createSignedInUser(test.runtime, "admin");
    await db().insert(settings).values({ key: SETTING_KEYS.notificationEmails, value: NOTIFY });
    propertyId = (await insertProperty(test.runtime, { codigo: "AP-PORTAL-1", title: "Apartamento dos portais", purpose: "aluguel" })).id;
  });
  afterAll(async () => {
    await test.stop();
  });

  /** A server-to-server POST: JSON, Basic auth, no Origin (what the portals send). */
  function post(body: unknown, options: { auth?: string | null; headers?: Record<string, string>; raw?: string } = {}) {
    const headers: Record<string, string> = { "Content-Type": "application/json", ...options.headers };
    const auth = options.auth === undefined ? basic("vivareal", SECRET) : options.auth;
    if (auth) headers.Authorization = auth;
    return app.request("/api/portais/leads", { method: "POST", headers, body: options.raw ?? JSON.stringify(body) });
  }

  const portalRows = (originLeadId: string) => db().select().from(leads).where(eq(leads.portal_lead_id, originLeadId));
  const totals = async () => {
    const [[l], [o], [e]] = await Promise.all([
      db().select({ n: count() }).from(leads),
      db().select({ n: count() }).from(outbox),
      db().select({ n: count() }).from(lead_events),
    ]);
    return { leads: l.n, outbox: o.n, events: e.n };
  };

  it("stores a valid lead: origin portal, the portal's name and temperature, the listing by código, the alert queued, a live event", async () => {
    const leadsChanged = new Promise<void>((resolve) => {
      const off = test.runtime.live.onChange((table) => {
        if (table === "leads") {
          off();
          resolve();
        }
      });
    });
    const body = portalLead();
    const response = await post(body);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const answer = (await response.json()) as { ok: boolean; leadId: string };
    expect(answer.ok).toBe(true);

    const [row] = await portalRows(body.originLeadId);
    expect(row).toMatchObject({
      id: answer.leadId,
      full_name: "Nome Consumidor",
      phone: "(84) 99999-1234",
      email: "nome.consumidor@email.com",
      origin: "portal",
      status: "novo",
      interest_type: "alugar",
      notes: "Olá, tenho interesse neste imóvel. Aguardo o contato. Obrigado.",
      property_id: propertyId,
      portal_name: "VivaReal",
      portal_lead_id: body.originLeadId,
      portal_temperature: "Alta",
    });

    // The same alert as a site lead: one per notification address, naming the portal.
    const mails = await db().select().from(outbox).where(eq(outbox.lead_id, row.id));
    expect(mails.map((mail) => mail.to_address).sort()).toEqual([...NOTIFY].sort());
    for (const mail of mails) {
      expect(mail.kind).toBe(LEAD_ALERT_KIND);
      expect(mail.subject).toBe("Novo lead: Nome Consumidor");
      expect(mail.text_body).toContain("Chegou um novo lead do portal VivaReal.");
      expect(mail.text_body).toContain("Temperatura: Alta");
      expect(mail.text_body).toContain("AP-PORTAL-1 — Apartamento dos portais");
      expect(mail.text_body).toContain(`${PUBLIC_URL}/crm/leads/${row.id}`);
    }
    // The timeline starts with its creation (the database trigger), and the CRM heard of it.
    const events = await db().select().from(lead_events).where(eq(lead_events.lead_id, row.id));
    expect(events.map((event) => event.kind)).toEqual(["created"]);
    await leadsChanged;

    // The lead's page shows where it came from.
    const page = (await leadLoader({ request: makeRequest(`/crm/leads/${row.id}`, { cookie: admin.cookie }), params: { id: row.id }, context } as never)) as {
      lead: { origin: string; portal_name: string | null; portal_temperature: string | null; property: { codigo: string } | null };
    };
    expect(page.lead).toMatchObject({ origin: "portal", portal_name: "VivaReal", portal_temperature: "Alta", property: { codigo: "AP-PORTAL-1" } });
  });

  it("a retry stores nothing more and alerts nobody again; it is answered like the first", async () => {
    const body = portalLead({ leadOrigin: "ZAP", transactionType: "SELL" });
    const first = await post(body);
    expect(first.status).toBe(200);
    const firstAnswer = await first.json();
    const before = await totals();
    const again = await post(body);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(firstAnswer);
    expect(await totals()).toEqual(before);
    const rows = await portalRows(body.originLeadId);
    expect(rows).toHaveLength(1);
    expect(rows[0].interest_type).toBe("comprar");
  });

  it("five copies of one lead at once store one row and one alert per address", async () => {
    const body = portalLead({ leadOrigin: "OLX" });
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(body)));
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    const ids = new Set(await Promise.all(answers.map(async (response) => ((await response.json()) as { leadId: string }).leadId)));
    expect(ids.size).toBe(1);
    const rows = await portalRows(body.originLeadId);
    expect(rows).toHaveLength(1);
    expect(await db().select().from(outbox).where(eq(outbox.lead_id, rows[0].id))).toHaveLength(NOTIFY.length);
    expect(await db().select().from(lead_events).where(eq(lead_events.lead_id, rows[0].id))).toHaveLength(1);
  });

  it("a person's data export (LGPD) carries the portal, its temperature and the origin 'Portal (…)'", async () => {
    const body = portalLead({ name: "Pessoa Exportada", ddd: "84", phone: "977771111", email: "exportada@teste.com", leadOrigin: "ZAP", temperature: "Média" });
    const { leadId } = (await (await post(body)).json()) as { leadId: string };
    const person = await loadPerson(db(), leadId);
    expect(person?.leads).toHaveLength(1);
    const json = JSON.parse(personJson(person!, new Date())) as { leads: Record<string, unknown>[] };
    expect(json.leads[0]).toMatchObject({ origem: "Portal (ZAP Imóveis)", portal: "ZAP", temperatura: "Média" });
    expect(personCsv(person!)).toContain("Portal (ZAP Imóveis)");
  });

  it("the same lead id from another portal is another lead", async () => {
    const body = portalLead({ leadOrigin: "VivaReal" });
    expect((await post(body)).status).toBe(200);
    expect((await post({ ...body, leadOrigin: "ZAP" })).status).toBe(200);
    expect(await portalRows(body.originLeadId)).toHaveLength(2);
  });

  it.each([
    ["no credentials", null],
    ["a wrong password", basic("vivareal", "senha-errada-mas-longa-o-bastante")],
    ["a wrong user", basic("zap", SECRET)],
    ["an empty password", basic("vivareal", "")],
    ["a Bearer token", `Bearer ${SECRET}`],
    ["a malformed Basic header", "Basic !!!"],
  ])("%s: 401 with a Basic challenge, nothing stored", async (_name, auth) => {
    const before = await totals();
    const body = portalLead();
    const response = await post(body, { auth });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Basic realm="portais"/);
    expect(await response.json()).toEqual({ ok: false, error: PORTAL_LEAD_MESSAGES.unauthorized });
    expect(await totals()).toEqual(before);
  });

  it("a session does not matter: a signed-in admin without the Basic credentials gets 401", async () => {
    const response = await app.request("/api/portais/leads", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: admin.cookie },
      body: JSON.stringify(portalLead()),
    });
    expect(response.status).toBe(401);
  });

  const invalid: [string, { raw?: string; body?: unknown }, string, string | undefined][] = [
    ["malformed JSON", { raw: '{"name": "Maria", ' }, PORTAL_LEAD_MESSAGES.notJson, undefined],
    ["a JSON list", { body: [portalLead()] }, PORTAL_LEAD_MESSAGES.notJson, undefined],
    ["a JSON string", { body: "lead" }, PORTAL_LEAD_MESSAGES.notJson, undefined],
    ["an empty body", { raw: "" }, PORTAL_LEAD_MESSAGES.notJson, undefined],
    ["no originLeadId", { body: portalLead({ originLeadId: undefined }) }, PORTAL_LEAD_MESSAGES.leadIdRequired, "originLeadId"],
    ["an originLeadId of 201 characters", { body: portalLead({ originLeadId: "x".repeat(201) }) }, PORTAL_LEAD_MESSAGES.leadIdInvalid, "originLeadId"],
    ["an originLeadId that is an object", { body: portalLead({ originLeadId: { id: 1 } }) }, PORTAL_LEAD_MESSAGES.leadIdInvalid, "originLeadId"],
    ["no name", { body: portalLead({ name: undefined }) }, MESSAGES.nameMin, "name"],
    ["a name of one letter", { body: portalLead({ name: " A " }) }, MESSAGES.nameMin, "name"],
    ["a name of 101 characters", { body: portalLead({ name: "A".repeat(101) }) }, MESSAGES.nameMax, "name"],
    ["a name that is a number", { body: portalLead({ name: 12345 }) }, MESSAGES.nameMin, "name"],
    ["a name with a control character", { body: portalLead({ name: "Maria\u001b[31m Silva" }) }, MESSAGES.nameInvalid, "name"],
    ["a name with NUL", { body: portalLead({ name: "Maria\u0000Silva" }) }, MESSAGES.nameInvalid, "name"],
    ["no phone", { body: portalLead({ ddd: undefined, phone: undefined, phoneNumber: undefined }) }, PORTAL_LEAD_MESSAGES.phoneRequired, "phone"],
    ["a phone too short", { body: portalLead({ phone: "1234", phoneNumber: undefined }) }, PORTAL_LEAD_MESSAGES.phoneInvalid, "phone"],
    ["an invalid e-mail", { body: portalLead({ email: "não é e-mail" }) }, MESSAGES.email, "email"],
    ["a leadOrigin of 61 characters", { body: portalLead({ leadOrigin: "P".repeat(61) }) }, PORTAL_LEAD_MESSAGES.portalName, "leadOrigin"],
    ["a temperature of 31 characters", { body: portalLead({ temperature: "t".repeat(31) }) }, PORTAL_LEAD_MESSAGES.temperature, "temperature"],
    ["a message with a control character", { body: portalLead({ message: "Olá\u0007" }) }, PORTAL_LEAD_MESSAGES.message, "message"],
  ];
  it.each(invalid)("%s: 400 with the reason, nothing stored", async (_name, input, error, field) => {
    const before = await totals();
    const response = await post(input.body, { raw: input.raw });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ok: false, error, ...(field ? { field } : {}) });
    expect(await totals()).toEqual(before);
  });

  it("a body that is not UTF-8: 400 with the reason, nothing stored (issue 21)", async () => {
    const before = await totals();
    // "José" in Latin-1: read as UTF-8 it was stored as "Jos\uFFFD".
    const body = Buffer.from(JSON.stringify(portalLead({ name: "José Consumidor" })), "latin1");
    const response = await app.request("/api/portais/leads", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: basic("vivareal", SECRET) },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ok: false, error: "Corpo com caracteres fora do UTF-8: envie o JSON em UTF-8." });
    expect(await totals()).toEqual(before);
  });

  it("a body over 64 KB is refused by the server's limit, nothing stored", async () => {
    const before = await totals();
    const response = await post(portalLead({ message: "a".repeat(70 * 1024) }));
    expect(response.status).toBe(413);
    expect(await totals()).toEqual(before);
  });

  it("a long message is kept, cut at 1000 characters", async () => {
    const body = portalLead({ message: `${"Quero muito visitar. ".repeat(80)}fim` });
    expect((await post(body)).status).toBe(200);
    const [row] = await portalRows(body.originLeadId);
    const kept = Array.from(row.notes!).length;
    expect(kept).toBeLessThanOrEqual(1000);
    expect(kept).toBeGreaterThan(990);
    expect(row.notes!.startsWith("Quero muito visitar. Quero")).toBe(true);
    expect(row.notes!.endsWith("…")).toBe(true);
  });

  it("an unknown or absent clientListingId: stored without a listing", async () => {
    const unknown = portalLead({ clientListingId: "NAO-EXISTE-99" });
    expect((await post(unknown)).status).toBe(200);
    const absent = portalLead({ clientListingId: undefined, originListingId: undefined, transactionType: undefined, temperature: undefined, email: undefined });
    expect((await post(absent)).status).toBe(200);
    const [first] = await portalRows(unknown.originLeadId);
    const [second] = await portalRows(absent.originLeadId);
    expect(first.property_id).toBeNull();
    expect(second).toMatchObject({ property_id: null, portal_temperature: null, email: null, interest_type: "comprar" });
    // Still alerted.
    expect(await db().select().from(outbox).where(inArray(outbox.lead_id, [first.id, second.id]))).toHaveLength(2 * NOTIFY.length);
  });

  it("a portal whose sender adds an Origin header is answered as without one: its Basic credentials are the key", async () => {
    // Issue 21, finding 14: these got 403 'envie o formulário pelo próprio site'.
    const senders: Record<string, string>[] = [{ Origin: "https://www.vivareal.com.br" }, { Origin: "null" }, { "Sec-Fetch-Site": "cross-site" }];
    for (const headers of senders) {
      const body = portalLead();
      const response = await post(body, { headers });
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect(await portalRows(body.originLeadId)).toHaveLength(1);
    }
    // The route still judges the credentials.
    const wrong = await post(portalLead(), { auth: basic("vivareal", "outra-senha-qualquer-1"), headers: { Origin: "https://www.vivareal.com.br" } });
    expect(wrong.status).toBe(401);
  });

  it("a browser's cross-site post is still refused before the route (403), nothing stored", async () => {
    const before = await totals();
    const browsers: { name: string; headers: Record<string, string>; auth?: null }[] = [
      { name: "no credentials", headers: { Origin: "https://evil.example" }, auth: null },
      { name: "no credentials, no Origin", headers: { "Sec-Fetch-Site": "cross-site" }, auth: null },
      { name: "a session cookie along", headers: { Origin: "https://evil.example", Cookie: admin.cookie } },
      // A browser may attach Basic credentials it remembers to a cross-site form post; a form's
      // body types need no CORS preflight, unlike JSON.
      { name: "a form's text/plain body", headers: { Origin: "https://evil.example", "Content-Type": "text/plain" } },
      { name: "a form's urlencoded body", headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" } },
      { name: "a multipart body", headers: { Origin: "null", "Content-Type": "multipart/form-data; boundary=x" } },
    ];
    for (const browser of browsers) {
      const response = await post(portalLead(), { headers: browser.headers, auth: browser.auth });
      expect(response.status, browser.name).toBe(403);
      expect(await response.text()).toBe("Pedido recusado: envie o formulário pelo próprio site.");
    }
    expect(await totals()).toEqual(before);
  });

  it("a cross-site post to the CRM carrying the session cookie is refused, even with Basic credentials and JSON", async () => {
    const lead = { full_name: "Lead Forjado no CRM", phone: "(84) 98888-7777", interest_type: "comprar", origin: "site", status: "novo" };
    const crmPost = (headers: Record<string, string>) =>
      app.request("/crm/leads.data", {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: admin.cookie, Authorization: basic("vivareal", SECRET), ...headers },
        body: JSON.stringify({ intent: "create", values: lead }),
      });
    const before = await totals();
    const foreign: Record<string, string>[] = [{ Origin: "https://evil.example" }, { "Sec-Fetch-Site": "cross-site" }];
    for (const headers of foreign) {
      expect((await crmPost(headers)).status, JSON.stringify(headers)).toBe(403);
    }
    expect(await totals()).toEqual(before);
    // The same post from the site itself reaches the CRM: the refusal above was the check.
    expect((await crmPost({ Origin: PUBLIC_URL })).status).toBe(200);
    expect(await db().select().from(leads).where(eq(leads.full_name, lead.full_name))).toHaveLength(1);
  });

  it("the site's per-address lead limit does not apply to the portals", async () => {
    // LEAD_LIMIT_PER_HOUR is 2 here; every request comes from the same (unknown) address.
    for (let i = 0; i < 4; i++) expect((await post(portalLead())).status).toBe(200);
  });

  it("a GET is answered 405", async () => {
    const response = await app.request("/api/portais/leads");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  it("the password changed in the settings: the old one gets 401, the new one stores; the audit row has no secret", async () => {
    const newSecret = "nova-senha-definida-a-mao-456";
    expect(await setWebhookSecret(db(), { id: admin.id, email: admin.email }, newSecret)).toEqual({ ok: true, changed: [SETTING_KEYS.portalWebhookSecret] });
    expect((await post(portalLead())).status).toBe(401);
    expect((await post(portalLead(), { auth: basic("vivareal", newSecret) })).status).toBe(200);
    const audits = await db().select().from(audit_log).where(eq(audit_log.entity_id, SETTING_KEYS.portalWebhookSecret));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ action: "settings.update", actor_id: admin.id, details: { key: SETTING_KEYS.portalWebhookSecret, method: "manual" } });
    expect(JSON.stringify(audits)).not.toContain(newSecret);
    // Put the test secret back for the tests that follow.
    await setWebhookSecret(db(), { id: admin.id, email: admin.email }, SECRET);
  });

  it("the reports split the portals' leads by portal (page, CSV and XLSX), each figure equal to an SQL count", async () => {
    // The names the portals send vary ("Zap", "ZAP Imóveis", "GrupoZap"…): one row per portal.
    for (const leadOrigin of ["Zap", "ZAP Imóveis", "zapimoveis", "OLX", "olx", "Grupo OLX", "GrupoZap", "Imovelweb"]) {
      expect((await post(portalLead({ leadOrigin }))).status).toBe(200);
    }
    const counted = async (where: SQL) => {
      const [{ n }] = await db().select({ n: count() }).from(leads).where(and(eq(leads.origin, "portal"), where));
      return n;
    };
    const named = (...names: string[]) => inArray(sql`lower(${leads.portal_name})`, names);
    const expected = {
      "Portal (ZAP Imóveis)": await counted(named("zap", "zap imóveis", "zapimoveis")),
      "Portal (VivaReal)": await counted(named("vivareal")),
      "Portal (OLX)": await counted(named("olx")),
      "Portal (Grupo OLX)": await counted(named("grupo olx", "grupozap")),
      "Portal (Imovelweb)": await counted(named("imovelweb")),
    };
    expect(expected["Portal (ZAP Imóveis)"]).toBeGreaterThanOrEqual(4); // "ZAP" from an earlier test too
    expect(expected["Portal (OLX)"]).toBeGreaterThanOrEqual(2);
    const all = await counted(sql`true`);
    expect(Object.values(expected).reduce((sum, n) => sum + n, 0)).toBe(all);

    // The page: one row per portal and no bare "Portal" row.
    const page = (await reportsLoader({ request: makeRequest("/crm/relatorios?periodo=30d", { cookie: admin.cookie }), params: {}, context } as never)) as {
      report: { tables: { origens: { rows: (string | number)[][] } } };
    };
    const pageRows = page.report.tables.origens.rows.filter((row) => String(row[0]).startsWith("Portal"));
    expect(Object.fromEntries(pageRows.map((row) => [row[0], row[1]]))).toEqual(expected);

    // The downloads: the same figures.
    const download = async (format: string) => {
      const response = (await reportExportLoader({
        request: makeRequest(`/crm/relatorios/exportar?relatorio=origens&formato=${format}&periodo=30d`, { cookie: admin.cookie }),
        params: {},
        context,
      } as never)) as Response;
      expect(response.status).toBe(200);
      return response;
    };
    const csv = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await (await download("csv")).arrayBuffer());
    const csvRows = (parse(csv.slice(1), { delimiter: ";" }) as string[][]).filter((row) => row[0].startsWith("Portal"));
    expect(Object.fromEntries(csvRows.map((row) => [row[0], Number(row[1])]))).toEqual(expected);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await (await download("xlsx")).arrayBuffer());
    const sheetRows = workbook.worksheets[0].getSheetValues().slice(2).map((row) => (row as unknown[]).slice(1));
    expect(Object.fromEntries(sheetRows.filter((row) => String(row[0]).startsWith("Portal")).map((row) => [row[0], row[1]]))).toEqual(expected);
  });
});
