import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log, listing_alert_tokens, listing_alerts, outbox } from "~/db/schema";
import { loadCrmAlerts } from "~/features/alerts/crm-list.server";
import { tokenHash } from "~/features/auth/tokens.server";
import { handlePrivacyAction, loadPrivacyPage } from "~/features/privacy/page.server";
import { exportPersonResponse } from "~/features/privacy/export.server";
import { insertLead, insertProperty } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { answerOf } from "./auth-helpers";

/**
 * The broker's side of 'Avise-me' (issue 23, decision 025): /crm/avise-me lists the alerts with
 * how many available listings fit each search (equal to an independent SQL count), and an alert
 * whose address has no lead is still found, exported and erased in CRM → Privacidade.
 */
describe.each(DATABASE_KINDS)("'Avise-me' in the CRM on %s", (kind) => {
  let test: TestRuntime;
  const db = () => test.runtime.db;
  const admin = { id: "00000000-0000-4000-8000-000000000001", email: "admin@teste.com", name: "Admin" };
  const BAIRRO = "Avisópolis";
  const SUBSCRIBER = "So.Alerta@Exemplo.com";

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    const listing = (bedrooms: number, price: number, status: "disponivel" | "vendido" = "disponivel") =>
      insertProperty(test.runtime, { neighborhood: BAIRRO, type: "apartamento", purpose: "venda", bedrooms, price, status });
    await listing(3, 500_000);
    await listing(3, 590_000);
    await listing(3, 700_000);
    await listing(2, 400_000);
    await listing(3, 450_000, "vendido");
  });
  afterAll(() => test.stop());

  const sqlCount = async (where: string) => {
    // "Available" as /imoveis means it: for sale or rent now, or in negotiation.
    const result = await db().execute(sql.raw(`select count(*)::int as n from properties_public where status in ('disponivel', 'em_negociacao') and ${where}`));
    return Number((result as unknown as { rows: { n: number }[] }).rows[0].n);
  };

  it("lists the alerts, newest first, with the listings that fit each search today", async () => {
    const searches = [
      { query: `finalidade=venda&tipo=apartamento&bairro=${encodeURIComponent(BAIRRO)}&quartos=3&preco_max=600000`, where: `neighborhood = '${BAIRRO}' and type = 'apartamento' and purpose = 'venda' and bedrooms = 3 and price <= 600000` },
      { query: `finalidade=venda&bairro=${encodeURIComponent(BAIRRO)}`, where: `neighborhood = '${BAIRRO}' and purpose = 'venda'` },
      { query: `tipo=casa&bairro=${encodeURIComponent(BAIRRO)}`, where: `neighborhood = '${BAIRRO}' and type = 'casa'` },
    ];
    for (const [index, search] of searches.entries()) {
      await db().insert(listing_alerts).values({ email: `lista${index}@exemplo.com`, query: search.query, status: index === 2 ? "pending" : "confirmed", created_at: new Date(Date.UTC(2026, 0, 1 + index)) });
    }
    const page = await loadCrmAlerts(db(), new URL("http://x/crm/avise-me"));
    const mine = page.rows.filter((row) => row.email.startsWith("lista"));
    expect(mine.map((row) => row.email)).toEqual(["lista2@exemplo.com", "lista1@exemplo.com", "lista0@exemplo.com"]);
    for (const [index, search] of searches.entries()) {
      const row = mine.find((item) => item.email === `lista${index}@exemplo.com`)!;
      expect(row.matching, search.query).toBe(await sqlCount(search.where));
    }
    expect(mine.find((row) => row.email === "lista0@exemplo.com")!.matching).toBe(2);
    expect(mine.find((row) => row.email === "lista0@exemplo.com")!.search).toContain("até R$");

    const [byStatus] = await db().select({ confirmed: sql<number>`count(*) filter (where status = 'confirmed')::int`, pending: sql<number>`count(*) filter (where status = 'pending')::int` }).from(listing_alerts);
    expect(page.counts).toEqual({ confirmed: Number(byStatus.confirmed), pending: Number(byStatus.pending) });
    const pending = await loadCrmAlerts(db(), new URL("http://x/crm/avise-me?status=pendentes"));
    expect(pending.rows.every((row) => row.status === "pending")).toBe(true);
    expect(pending.total).toBe(Number(byStatus.pending));
    // Nonsense in the address falls back to the whole list, first page.
    const odd = await loadCrmAlerts(db(), new URL("http://x/crm/avise-me?status=x&pagina=-3"));
    expect(odd).toMatchObject({ status: "todos", page: 1 });
  });

  it("finds a subscriber with no lead by e-mail, exports and erases their alerts, links and e-mails", async () => {
    const [first] = await db().insert(listing_alerts).values({ email: SUBSCRIBER, query: "tipo=casa", status: "confirmed" }).returning();
    const [second] = await db().insert(listing_alerts).values({ email: SUBSCRIBER.toLowerCase(), phone: "(84) 98888-1212", query: "tipo=terreno", status: "pending" }).returning();
    const [other] = await db().insert(listing_alerts).values({ email: "outra.pessoa@exemplo.com", query: "tipo=casa", status: "confirmed" }).returning();
    await db().insert(listing_alert_tokens).values({ token_hash: tokenHash("t".repeat(64)), email: SUBSCRIBER, alert_id: first.id });
    await db().insert(outbox).values({ kind: "alert-digest", to_address: SUBSCRIBER.toLowerCase(), subject: "Novos imóveis", text_body: "corpo" });
    // A lead elsewhere with another address changes nothing.
    await insertLead(test.runtime, { email: "lead.qualquer@exemplo.com" });

    const found = answerOf(await handlePrivacyAction(db(), admin, { intent: "search", q: " so.alerta@exemplo.com " }).catch((error: unknown) => error));
    expect(found.status).toBe(302);
    const alertId = new URL(found.location!, "http://x").searchParams.get("alerta")!;
    expect([first.id, second.id]).toContain(alertId);
    // By the WhatsApp number too.
    const byPhone = answerOf(await handlePrivacyAction(db(), admin, { intent: "search", q: "84 98888-1212" }).catch((error: unknown) => error));
    expect(byPhone.location).toBe(`/crm/privacidade?alerta=${second.id}`);

    const page = answerOf<{ subscriber: { alerts: { id: string }[] } | null }>(await loadPrivacyPage(db(), new URL(`http://x/crm/privacidade?alerta=${first.id}`)));
    expect(page.body.subscriber!.alerts.map((alert) => alert.id).sort()).toEqual([first.id, second.id].sort());

    const file = await exportPersonResponse(db(), admin, new URL(`http://x/crm/privacidade/exportar?alerta=${first.id}&formato=json`));
    expect(file.status).toBe(200);
    const document = JSON.parse(await file.text());
    expect(document.alertas_avise_me).toHaveLength(2);
    expect(document.emails.map((mail: { destinatario: string }) => mail.destinatario)).toEqual([SUBSCRIBER.toLowerCase()]);
    expect(JSON.stringify(document)).not.toContain("outra.pessoa");
    const csv = await exportPersonResponse(db(), admin, new URL(`http://x/crm/privacidade/exportar?alerta=${first.id}&formato=csv`));
    expect(await csv.text()).toContain("Alerta 'Avise-me'");
    expect((await exportPersonResponse(db(), admin, new URL("http://x/crm/privacidade/exportar?alerta=nada&formato=json"))).status).toBe(400);

    const erased = answerOf<{ ok: boolean; message: string }>(await handlePrivacyAction(db(), admin, { intent: "delete-alerts", alerta: first.id }));
    expect(erased.body).toMatchObject({ ok: true, message: "2 alertas apagados, com os links e e-mails deles" });
    expect(await db().select().from(listing_alerts).where(sql`lower(${listing_alerts.email}) = ${SUBSCRIBER.toLowerCase()}`)).toHaveLength(0);
    expect(await db().select().from(listing_alert_tokens).where(sql`lower(${listing_alert_tokens.email}) = ${SUBSCRIBER.toLowerCase()}`)).toHaveLength(0);
    expect(await db().select().from(outbox).where(sql`lower(${outbox.to_address}) = ${SUBSCRIBER.toLowerCase()}`)).toHaveLength(0);
    expect(await db().select().from(listing_alerts).where(eq(listing_alerts.id, other.id))).toHaveLength(1);
    const [audit] = await db().select().from(audit_log).where(eq(audit_log.action, "privacy.alerts_delete"));
    expect(audit.details).toEqual({ alerts: 2 });
    expect(JSON.stringify(audit)).not.toContain("alerta@");

    // Gone: the page says so (404), a second erase and a nonsense id are clear answers, never 500.
    expect(answerOf(await loadPrivacyPage(db(), new URL(`http://x/crm/privacidade?alerta=${first.id}`))).status).toBe(404);
    expect(answerOf(await handlePrivacyAction(db(), admin, { intent: "delete-alerts", alerta: first.id })).status).toBe(404);
    expect(answerOf(await handlePrivacyAction(db(), admin, { intent: "delete-alerts", alerta: "x" })).status).toBe(400);
    const nobody = answerOf<{ message: string }>(await handlePrivacyAction(db(), admin, { intent: "search", q: SUBSCRIBER }));
    expect(nobody).toMatchObject({ status: 404, body: { message: "Nenhum lead ou alerta encontrado com esse telefone ou e-mail" } });
    expect((await db().select({ n: count() }).from(audit_log).where(eq(audit_log.action, "privacy.export")))[0].n).toBe(2);
  });
});
