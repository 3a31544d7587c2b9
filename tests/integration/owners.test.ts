import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log, outbox, owner_report_runs, owners, property_captacao, property_owners, property_views, visits } from "~/db/schema";
import { previousMonth, sendMonthlyOwnerReports } from "~/features/owners/report.server";
import { deleteProperty } from "~/features/properties/crm.server";
import { exclusivityWarnings } from "~/features/owners/captacao.server";
import { brokerDay } from "~/lib/format";
import { loader as captacaoDocumentLoader } from "~/routes/crm-captacao-document";
import { loader as dashboardLoader } from "~/routes/crm-dashboard";
import { action as ownerAction, loader as ownerLoader } from "~/routes/crm-owner";
import { loader as ownerExportLoader } from "~/routes/crm-owner-export";
import { action as ownersAction, loader as ownersLoader } from "~/routes/crm-owners";
import { loader as favoritesLoader } from "~/routes/favorites";
import { loader as homeLoader } from "~/routes/home";
import { loader as mediaLoader } from "~/routes/media";
import { loader as feedLoader } from "~/routes/portal-feed";
import { loader as privacyLoader } from "~/routes/privacy";
import { loader as listLoader } from "~/routes/properties";
import { loader as propertyLoader } from "~/routes/property";
import { loader as sitemapLoader } from "~/routes/sitemap";
import { loader as bookingLoader } from "~/routes/visit-booking";
import { loader as rootLoader } from "~/root";
import { createSignedInUser, insertLead, insertProperty, makeRequest, settle, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * Owners and captação (issue 23, items 4 and 6; decision 024): the CRM pages' loaders and actions
 * with real requests, the private authorisation PDF, the dashboard's exclusivity warning, the
 * LGPD tools, and an owner's data in no public response.
 */

const context = { cspNonce: "n", clientIp: "192.0.2.44" };
const TOKEN = "feed-de-teste-owners-0123456789";
const OWNER = { full_name: "Herculano Proprietário Zebedeu", phone: "(84) 98765-4321", email: "herculano.zebedeu@example.com", document: "529.982.247-25" };
const PDF = Buffer.concat([Buffer.from("%PDF-1.4\n% teste\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")]);

type Json = Record<string, unknown>;
/** db.execute's rows on both drivers (pg and PGlite both answer { rows }). */
const rowsOf = (result: unknown) => (result as { rows: { n: number }[] }).rows;
const dataOf = (result: unknown): Json => (result && typeof result === "object" && "data" in result && "init" in result ? ((result as { data: Json }).data) : (result as Json));
const statusOf = (result: unknown): number =>
  result instanceof Response ? result.status : result && typeof result === "object" && "init" in result ? ((result as { init: { status?: number } }).init.status ?? 200) : 200;

function multipart(path: string, cookie: string, fields: Record<string, string>, file?: { bytes: Buffer; name: string; type: string }) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  if (file) form.set("file", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return new Request(`http://localhost:3000${path}`, { method: "POST", body: form, headers: { Cookie: cookie, Origin: "http://localhost:3000" } });
}

describe.each(DATABASE_KINDS)("owners and captação on %s", (kind) => {
  let test: TestRuntime;
  let corretor: TestUser;
  let admin: TestUser;
  let propertyId: string;
  let codigo: string;
  let ownerId: string;

  const db = () => test.runtime.db;
  const act = (id: string, form: Record<string, string>, user: TestUser = corretor) =>
    settle(() => ownerAction({ request: makeRequest(`/crm/proprietarios/${id}`, { form, cookie: user.cookie }), params: { id }, context } as never));
  const page = async (id: string, user: TestUser = corretor) =>
    dataOf(await ownerLoader({ request: makeRequest(`/crm/proprietarios/${id}`, { cookie: user.cookie }), params: { id }, context } as never)) as {
      owner: { full_name: string; listings: { id: string; codigo: string; captacao: null | { authorization_type: string; ends_on: string | null; commission: number | null; has_document: boolean } }[] };
    };

  beforeAll(async () => {
    test = await startTestRuntime(kind, { PORTAL_FEED_TOKEN: TOKEN });
    corretor = await createSignedInUser(test.runtime, "corretor");
    admin = await createSignedInUser(test.runtime, "admin");
    const property = await insertProperty(test.runtime, {
      title: "Apartamento com vista para o mar em Ponta Negra",
      description: "Apartamento amplo, nascente, com varanda gourmet, duas vagas e lazer completo no condomínio.",
      images: ["/media/0b7f3c2e-1a2b-4c3d-9e8f-001122334455/800.webp"],
      publish_to_portals: true,
    } as never);
    propertyId = property.id;
    codigo = property.codigo;
  });
  afterAll(async () => {
    await test?.stop();
  });

  it("creates an owner with a valid CPF (stored as digits) and refuses bad input with 400 and a Portuguese message", async () => {
    const bad = await settle(() =>
      ownersAction({ request: makeRequest("/crm/proprietarios", { form: { intent: "create", ...OWNER, document: "529.982.247-24" }, cookie: corretor.cookie }), params: {}, context } as never),
    );
    expect(statusOf(bad)).toBe(400);
    expect(dataOf(bad)).toMatchObject({ ok: false, message: "CPF ou CNPJ inválido: confira os números", field: "document" });
    const longName = await settle(() =>
      ownersAction({ request: makeRequest("/crm/proprietarios", { form: { intent: "create", full_name: "x".repeat(121) }, cookie: corretor.cookie }), params: {}, context } as never),
    );
    expect(statusOf(longName)).toBe(400);
    expect((await db().select({ n: count() }).from(owners))[0].n).toBe(0);

    const created = await settle(() =>
      ownersAction({ request: makeRequest("/crm/proprietarios", { form: { intent: "create", ...OWNER }, cookie: corretor.cookie }), params: {}, context } as never),
    );
    expect(created).toBeInstanceOf(Response);
    const location = (created as Response).headers.get("Location") ?? "";
    expect(location).toMatch(/^\/crm\/proprietarios\/[0-9a-f-]{36}$/);
    ownerId = location.split("/").pop()!;
    const [row] = await db().select().from(owners).where(eq(owners.id, ownerId));
    expect(row).toMatchObject({ full_name: OWNER.full_name, phone: OWNER.phone, email: OWNER.email, document: "52998224725" });
  });

  it("finds the owner by name without accents, e-mail, phone digits and CPF digits", async () => {
    for (const q of ["proprietario zebedeu", "HERCULANO.ZEBEDEU@", "98765-4321", "52998224725", "529.982.247-25"]) {
      const result = dataOf(await ownersLoader({ request: makeRequest(`/crm/proprietarios?q=${encodeURIComponent(q)}`, { cookie: corretor.cookie }), params: {}, context } as never)) as {
        rows: { id: string; document: string }[];
      };
      expect(result.rows.map((owner) => owner.id), q).toEqual([ownerId]);
      expect(result.rows[0].document).toBe("529.982.247-25");
    }
    const none = dataOf(await ownersLoader({ request: makeRequest("/crm/proprietarios?q=ninguem", { cookie: corretor.cookie }), params: {}, context } as never)) as { rows: unknown[] };
    expect(none.rows).toEqual([]);
    const tooLong = await ownersLoader({ request: makeRequest(`/crm/proprietarios?q=${"a".repeat(101)}`, { cookie: corretor.cookie }), params: {}, context } as never);
    expect(statusOf(tooLong)).toBe(400);
  });

  it("edits the owner; the audit trail names the changed fields, never their values", async () => {
    const result = await act(ownerId, { intent: "update", ...OWNER, notes: "Prefere contato à tarde" });
    expect(dataOf(result)).toMatchObject({ ok: true });
    const [entry] = await db().select().from(audit_log).where(and(eq(audit_log.action, "owner.update"), eq(audit_log.entity_id, ownerId)));
    expect(entry.details).toEqual({ fields: ["notes"] });
    expect(JSON.stringify(await db().select().from(audit_log))).not.toContain("Prefere contato");
  });

  it("links a listing by its code, refuses an unknown code and a second link", async () => {
    expect(statusOf(await act(ownerId, { intent: "link", codigo: "NAO-EXISTE" }))).toBe(404);
    expect(dataOf(await act(ownerId, { intent: "link", codigo: codigo.toLowerCase() }))).toMatchObject({ ok: true });
    expect(statusOf(await act(ownerId, { intent: "link", codigo }))).toBe(409);
    const links = await db().select().from(property_owners).where(eq(property_owners.owner_id, ownerId));
    expect(links.map((link) => link.property_id)).toEqual([propertyId]);
  });

  it("saves the captação with Portuguese messages for bad dates and commission", async () => {
    const base = { intent: "captacao", property_id: propertyId, authorization_type: "exclusiva", starts_on: "2026-01-10", ends_on: "2026-12-31", commission: "6,5", keys_location: "Na portaria" };
    const badDates = await act(ownerId, { ...base, ends_on: "2025-12-31" });
    expect(statusOf(badDates)).toBe(400);
    expect(dataOf(badDates).message).toBe("A data de término deve ser igual ou posterior à de início");
    expect(dataOf(await act(ownerId, { ...base, commission: "150" })).message).toBe("Comissão inválida: informe um percentual entre 0 e 100");
    expect(dataOf(await act(ownerId, { ...base, starts_on: "2026-02-30" })).message).toBe("Data inválida");
    expect(dataOf(await act(ownerId, { ...base, authorization_type: "talvez" })).message).toBe("Escolha o tipo de autorização");
    expect(statusOf(await act(ownerId, { ...base, property_id: "00000000-0000-4000-8000-000000000000" }))).toBe(404);

    expect(dataOf(await act(ownerId, base))).toMatchObject({ ok: true, message: "Captação salva" });
    const listing = (await page(ownerId)).owner.listings[0];
    expect(listing.captacao).toMatchObject({ authorization_type: "exclusiva", ends_on: "2026-12-31", commission: 6.5, has_document: false });
    const [entry] = await db().select().from(audit_log).where(eq(audit_log.action, "captacao.update"));
    expect(entry.details).toMatchObject({ property: codigo, fields: ["authorization_type", "starts_on", "ends_on", "commission", "keys_location", "report_note"] });
  });

  it("stores the authorisation PDF privately: only a PDF, served to staff only, never by the public media route", async () => {
    const notPdf = await settle(() =>
      ownerAction({ request: multipart(`/crm/proprietarios/${ownerId}`, corretor.cookie, { intent: "document", property_id: propertyId }, { bytes: Buffer.from("<html>oi</html>"), name: "a.pdf", type: "application/pdf" }), params: { id: ownerId }, context } as never),
    );
    expect(statusOf(notPdf)).toBe(400);
    expect(dataOf(notPdf).message).toBe("O arquivo não é um PDF");
    const tooBig = await settle(() =>
      ownerAction({ request: multipart(`/crm/proprietarios/${ownerId}`, corretor.cookie, { intent: "document", property_id: propertyId }, { bytes: Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]), name: "a.pdf", type: "application/pdf" }), params: { id: ownerId }, context } as never),
    );
    expect(statusOf(tooBig)).toBe(413);

    const saved = await settle(() =>
      ownerAction({ request: multipart(`/crm/proprietarios/${ownerId}`, corretor.cookie, { intent: "document", property_id: propertyId }, { bytes: PDF, name: "autorizacao.pdf", type: "application/pdf" }), params: { id: ownerId }, context } as never),
    );
    expect(dataOf(saved)).toMatchObject({ ok: true, message: "Autorização (PDF) enviada" });
    const [row] = await db().select().from(property_captacao).where(eq(property_captacao.property_id, propertyId));
    expect(row.document_key).toMatch(/^private-[0-9a-f-]{36}\/autorizacao\.pdf$/);

    const served = (await captacaoDocumentLoader({ request: makeRequest(`/crm/captacao/${propertyId}/documento`, { cookie: corretor.cookie }), params: { propertyId }, context } as never)) as Response;
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("application/pdf");
    expect(served.headers.get("cache-control")).toContain("no-store");
    expect(Buffer.from(await served.arrayBuffer()).equals(PDF)).toBe(true);

    const anonymous = await settle(() => captacaoDocumentLoader({ request: makeRequest(`/crm/captacao/${propertyId}/documento`), params: { propertyId }, context } as never));
    expect(statusOf(anonymous)).toBe(401);
    const [folder, file] = row.document_key!.split("/");
    const publicMedia = await mediaLoader({ request: makeRequest(`/media/${folder}/${file}`), params: { id: folder, file }, context } as never);
    expect(statusOf(publicMedia)).toBe(404);
  });

  it("warns on the dashboard from exactly 30 days before an exclusivity ends", async () => {
    const today = brokerDay(new Date());
    const plus = (days: number) => new Date(Date.parse(`${today}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    await db().update(property_captacao).set({ starts_on: null, ends_on: plus(31) }).where(eq(property_captacao.property_id, propertyId));
    expect(await exclusivityWarnings(db(), today)).toEqual([]);
    await db().update(property_captacao).set({ ends_on: plus(30) }).where(eq(property_captacao.property_id, propertyId));
    const dashboard = dataOf(await dashboardLoader({ request: makeRequest("/crm", { cookie: corretor.cookie }), params: {}, context } as never)) as { exclusivity: { text: string }[] };
    expect(dashboard.exclusivity.map((warning) => warning.text)).toEqual([`Exclusividade de ${codigo} termina em 30 dias`]);
    await db().update(property_captacao).set({ ends_on: plus(1) }).where(eq(property_captacao.property_id, propertyId));
    expect((await exclusivityWarnings(db(), today)).map((warning) => warning.text)).toEqual([`Exclusividade de ${codigo} termina em 1 dia`]);
    await db().update(property_captacao).set({ authorization_type: "nao_exclusiva" }).where(eq(property_captacao.property_id, propertyId));
    expect(await exclusivityWarnings(db(), today)).toEqual([]);
    await db().update(property_captacao).set({ authorization_type: "exclusiva", ends_on: plus(-1) }).where(eq(property_captacao.property_id, propertyId));
    expect(await exclusivityWarnings(db(), today)).toEqual([]);
  });

  it("queues the monthly owner report once per owner, listing and month, with figures equal to SQL counts; on demand too; opt-out stops it", async () => {
    const now = new Date();
    const period = previousMonth(now);
    const inMonth = (day: number, hour = 15) => new Date(`${period.from.slice(0, 8)}${String(day).padStart(2, "0")}T${String(hour).padStart(2, "0")}:00:00Z`);
    await db().insert(property_views).values([
      { property_id: propertyId, day: `${period.from.slice(0, 8)}03`, views: 7 },
      { property_id: propertyId, day: `${period.from.slice(0, 8)}20`, views: 5 },
      { property_id: propertyId, day: period.to, views: 100 },
    ]);
    const [leadA, leadB] = await Promise.all([
      insertLead(test.runtime, { property_id: propertyId, created_at: inMonth(4) } as never),
      insertLead(test.runtime, { property_id: propertyId, created_at: inMonth(10) } as never),
      insertLead(test.runtime, { property_id: propertyId, created_at: new Date(Date.parse(`${period.to}T03:00:00Z`)) } as never),
    ]);
    await db().insert(visits).values([
      { lead_id: leadA.id, property_id: propertyId, scheduled_at: inMonth(5) },
      { lead_id: leadB.id, property_id: propertyId, scheduled_at: inMonth(6), status: "cancelada" },
    ]);
    const expected = async () => {
      const [views] = await db().execute<{ n: number }>(sql`select coalesce(sum(views), 0)::int as n from property_views where property_id = ${propertyId} and day >= ${period.from}::date and day < ${period.to}::date`).then(rowsOf);
      const [leadCount] = await db().execute<{ n: number }>(sql`select count(*)::int as n from leads where property_id = ${propertyId} and created_at >= (${period.from}::date + time '03:00') at time zone 'UTC' and created_at < (${period.to}::date + time '03:00') at time zone 'UTC'`).then(rowsOf);
      const [visitCount] = await db().execute<{ n: number }>(sql`select count(*)::int as n from visits where property_id = ${propertyId} and status <> 'cancelada' and scheduled_at >= (${period.from}::date + time '03:00') at time zone 'UTC' and scheduled_at < (${period.to}::date + time '03:00') at time zone 'UTC'`).then(rowsOf);
      return { views: Number(views.n), leads: Number(leadCount.n), visits: Number(visitCount.n) };
    };
    const sqlFigures = await expected();
    expect(sqlFigures).toEqual({ views: 12, leads: 2, visits: 1 });
    await act(ownerId, { intent: "captacao", property_id: propertyId, authorization_type: "exclusiva", keys_location: "Na portaria", report_note: "Dois interessados voltam na semana que vem." });

    const first = await sendMonthlyOwnerReports(db(), now);
    const second = await sendMonthlyOwnerReports(db(), now);
    expect(first).toEqual({ queued: 1, period: period.key });
    expect(second).toEqual({ queued: 0, period: period.key });
    const mails = await db().select().from(outbox).where(eq(outbox.kind, "owner_report"));
    expect(mails.map((mail) => mail.to_address)).toEqual([OWNER.email]);
    expect(mails[0].subject).toBe(`Relatório do seu imóvel ${codigo} — ${period.label}`);
    expect(mails[0].text_body).toContain(`- Visualizações do anúncio: ${sqlFigures.views}`);
    expect(mails[0].text_body).toContain(`- Contatos de interessados: ${sqlFigures.leads}`);
    expect(mails[0].text_body).toContain(`- Visitas: ${sqlFigures.visits}`);
    expect(mails[0].text_body).toContain("Nota do corretor: Dois interessados voltam na semana que vem.");

    const now30 = await act(ownerId, { intent: "report" });
    expect(dataOf(now30)).toMatchObject({ ok: true, message: "Relatório enviado para a fila de e-mails (1 imóvel)" });
    expect((await db().select().from(outbox).where(eq(outbox.kind, "owner_report"))).length).toBe(2);

    await act(ownerId, { intent: "update", ...OWNER, notes: "Prefere contato à tarde", report_opt_out: "on" });
    expect(statusOf(await act(ownerId, { intent: "report" }))).toBe(409);
    await db().delete(owner_report_runs);
    expect((await sendMonthlyOwnerReports(db(), now)).queued).toBe(0);
    await act(ownerId, { intent: "update", ...OWNER, notes: "Prefere contato à tarde" });
  });

  it("shows the owner's name, phone and CPF in no public response: pages' data, the feed and the sitemap", async () => {
    const needles = [OWNER.full_name, "Zebedeu", OWNER.phone, "98765", "52998224725", "529.982.247-25", OWNER.email, "Na portaria", "private-"];
    const bodies: string[] = [];
    const json = (value: unknown) => JSON.stringify(dataOf(value));
    const request = (path: string) => makeRequest(path);
    bodies.push(json(await rootLoader()));
    bodies.push(json(await homeLoader()));
    bodies.push(json(await listLoader({ request: request("/imoveis"), params: {}, context } as never)));
    bodies.push(json(await listLoader({ request: request(`/imoveis?busca=${encodeURIComponent("Zebedeu")}`), params: {}, context } as never)));
    const property = await propertyLoader({ request: request(`/imoveis/${propertyId}`), params: { id: propertyId }, context } as never);
    const propertyJson = json(property);
    expect(propertyJson).toContain(codigo);
    bodies.push(propertyJson);
    bodies.push(json(await privacyLoader()));
    bodies.push(json(await favoritesLoader({ request: request(`/favoritos?ids=${propertyId}`), params: {}, context } as never)));
    bodies.push(json(await settle(() => bookingLoader({ request: request(`/agendar-visita?imovel=${propertyId}`), params: {}, context } as never))));
    const feed = (await feedLoader({ request: request(`/feeds/vrsync/${TOKEN}.xml`), params: { file: `${TOKEN}.xml` }, context } as never)) as Response;
    const feedText = await feed.text();
    expect(feedText).toContain(codigo);
    bodies.push(feedText);
    const sitemap = (await sitemapLoader()) as Response;
    const sitemapText = await sitemap.text();
    expect(sitemapText).toContain(propertyId);
    bodies.push(sitemapText);
    for (const body of bodies) for (const needle of needles) expect(body).not.toContain(needle);
  });

  it("exports the owner's data in Portuguese to admins only, and audits it", async () => {
    const denied = await settle(() => ownerExportLoader({ request: makeRequest(`/crm/proprietarios/${ownerId}/exportar`, { cookie: corretor.cookie }), params: { id: ownerId }, context } as never));
    expect(statusOf(denied)).toBe(403);
    const response = (await ownerExportLoader({ request: makeRequest(`/crm/proprietarios/${ownerId}/exportar`, { cookie: admin.cookie }), params: { id: ownerId }, context } as never)) as Response;
    expect(response.headers.get("content-disposition")).toContain("attachment");
    const document = (await response.json()) as { dados: Json; imoveis: { codigo: string; captacao: Json }[] };
    expect(document.dados).toMatchObject({ nome: OWNER.full_name, telefone: OWNER.phone, email: OWNER.email, cpf_cnpj: "529.982.247-25" });
    expect(document.imoveis[0]).toMatchObject({ codigo, captacao: { autorizacao: "exclusiva", local_das_chaves: "Na portaria", documento_pdf_guardado: true } });
    expect((await db().select({ n: count() }).from(audit_log).where(eq(audit_log.action, "owner.export")))[0].n).toBe(1);
  });

  it("anonymises an owner (admins only): data and the listing's PDF are gone, the link stays", async () => {
    const [before] = await db().select().from(property_captacao).where(eq(property_captacao.property_id, propertyId));
    expect(statusOf(await act(ownerId, { intent: "anonymize" }))).toBe(403);
    expect(dataOf(await act(ownerId, { intent: "anonymize" }, admin))).toMatchObject({ ok: true });
    const [row] = await db().select().from(owners).where(eq(owners.id, ownerId));
    expect(row).toMatchObject({ full_name: "Proprietário anonimizado", phone: null, email: null, document: null, notes: null });
    expect(row.anonymized_at).not.toBeNull();
    const [after] = await db().select().from(property_captacao).where(eq(property_captacao.property_id, propertyId));
    expect(after.document_key).toBeNull();
    expect(await test.runtime.storage.get(before.document_key!)).toBeNull();
    expect((await db().select().from(property_owners).where(eq(property_owners.owner_id, ownerId))).length).toBe(1);
    expect(statusOf(await act(ownerId, { intent: "anonymize" }, admin))).toBe(409);
    // The reports mailed to the owner carried their name: gone too.
    expect(await db().select().from(outbox).where(eq(outbox.kind, "owner_report"))).toEqual([]);
  });

  it("deletes an owner with their links and their listings' PDFs (from the storage too)", async () => {
    const created = (await settle(() =>
      ownersAction({ request: makeRequest("/crm/proprietarios", { form: { intent: "create", full_name: "Outra Dona", document: "11.222.333/0001-81" }, cookie: corretor.cookie }), params: {}, context } as never),
    )) as Response;
    const id = created.headers.get("Location")!.split("/").pop()!;
    await act(id, { intent: "link", codigo });
    await settle(() =>
      ownerAction({ request: multipart(`/crm/proprietarios/${id}`, corretor.cookie, { intent: "document", property_id: propertyId }, { bytes: PDF, name: "a.pdf", type: "application/pdf" }), params: { id }, context } as never),
    );
    const [withDocument] = await db().select().from(property_captacao).where(eq(property_captacao.property_id, propertyId));
    expect(await test.runtime.storage.get(withDocument.document_key!)).not.toBeNull();
    const removed = await settle(() =>
      ownersAction({ request: makeRequest("/crm/proprietarios", { form: { intent: "delete", id }, cookie: corretor.cookie }), params: {}, context } as never),
    );
    expect(dataOf(removed)).toMatchObject({ ok: true, message: "Proprietário excluído" });
    expect(await db().select().from(owners).where(eq(owners.id, id))).toEqual([]);
    expect(await db().select().from(property_owners).where(eq(property_owners.owner_id, id))).toEqual([]);
    expect(await test.runtime.storage.get(withDocument.document_key!)).toBeNull();
    const loaded = await settle(() => ownerLoader({ request: makeRequest(`/crm/proprietarios/${id}`, { cookie: corretor.cookie }), params: { id }, context } as never));
    expect(statusOf(loaded)).toBe(404);
  });
  it("deleting a listing deletes its authorisation PDF from the storage too", async () => {
    const property = await insertProperty(test.runtime);
    const created = (await settle(() =>
      ownersAction({ request: makeRequest("/crm/proprietarios", { form: { intent: "create", full_name: "Dono Efêmero" }, cookie: corretor.cookie }), params: {}, context } as never),
    )) as Response;
    const id = created.headers.get("Location")!.split("/").pop()!;
    await act(id, { intent: "link", codigo: property.codigo });
    await act(id, { intent: "captacao", property_id: property.id, authorization_type: "nao_exclusiva" });
    await settle(() =>
      ownerAction({ request: multipart(`/crm/proprietarios/${id}`, corretor.cookie, { intent: "document", property_id: property.id }, { bytes: PDF, name: "a.pdf", type: "application/pdf" }), params: { id }, context } as never),
    );
    const [row] = await db().select().from(property_captacao).where(eq(property_captacao.property_id, property.id));
    expect(await test.runtime.storage.get(row.document_key!)).not.toBeNull();
    expect(await deleteProperty(test.runtime, null, property.id)).toBe(true);
    expect(await test.runtime.storage.get(row.document_key!)).toBeNull();
    expect(await db().select().from(property_captacao).where(eq(property_captacao.property_id, property.id))).toEqual([]);
  });
});
