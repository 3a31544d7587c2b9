import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { audit_log, deals, proposals, property_views, settings } from "~/db/schema";
import { REPORT_KEYS } from "~/features/reports/tables";
import { loader as leadsExportLoader } from "~/routes/crm-leads-export";
import { loader as propertiesExportLoader } from "~/routes/crm-properties-export";
import { loader as reportsExportLoader } from "~/routes/crm-reports-export";
import { loader as reportsLoader } from "~/routes/crm-reports";
import { ACTORS, type Actor, ADMIN_API_RULE, API_RULE, context, matrixRuntime, outcomeOf, PAGE_RULE } from "../helpers/authorization";
import { insertLead, insertProperty, makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";
import { parse } from "csv-parse/sync";

/**
 * The authorisation matrix of the reports (issue 12): the page for every period form, each report
 * download in both formats, the leads list download (personal data: admins only, audited) and
 * the properties list download (any staff member; the partner broker's name for admins only),
 * for an anonymous visitor, a user without a role, a corretor and an admin, on both databases.
 * None of these writes anything but the leads download's audit row: counted before and after.
 */

describe.each(DATABASE_KINDS)("reports authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  const { cookieOf } = matrix;
  const call = (loader: (args: never) => Promise<unknown>, actor: Actor, path: string) =>
    settle(() => loader({ request: makeRequest(path, { cookie: cookieOf(actor) }), params: {}, context } as never));

  beforeAll(async () => {
    const property = await insertProperty(matrix.runtime, { codigo: "AUT-1", broker_partner: "Parceira Sigilosa" });
    await insertLead(matrix.runtime, { full_name: "Pessoa Sigilosa", property_id: property.id });
    // Issue 24: a standing deal closed five days ago (inside '90d'), so 'negocios' has a row.
    const sold = await insertProperty(matrix.runtime, { codigo: "AUT-2" });
    const buyer = await insertLead(matrix.runtime, { full_name: "Compradora Matriz", property_id: sold.id });
    const [proposal] = await matrix.runtime.db.insert(proposals).values({ lead_id: buyer.id, property_id: sold.id, kind: "venda", status: "aceita", amount_cents: 480_000_00, valid_until: "2100-01-01" }).returning();
    const closedOn = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
    await matrix.runtime.db.insert(deals).values({ proposal_id: proposal.id, lead_id: buyer.id, property_id: sold.id, kind: "venda", final_value_cents: 480_000_00, closed_on: closedOn, commission_percent: 6, commission_cents: 28_800_00 });
  });

  const audits = async () => (await matrix.runtime.db.select({ n: count() }).from(audit_log).where(eq(audit_log.action, "lead.export")))[0].n;
  const views = async () => (await matrix.runtime.db.select({ n: count() }).from(property_views))[0].n;

  for (const search of ["", "?periodo=mes", "?periodo=mes-passado", "?periodo=90d", "?periodo=ano", "?periodo=personalizado&de=2025-01-01&ate=2025-03-31"]) {
    it.each(ACTORS)(`loader /crm/relatorios${search} for %s`, async (actor) => {
      const result = await call(reportsLoader, actor, `/crm/relatorios${search}`);
      expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
      if (PAGE_RULE[actor].kind === "ok") {
        // What the page gets holds no person's data.
        expect(JSON.stringify(result)).not.toContain("Sigilosa");
      }
    });
  }

  it.each(ACTORS)("loader /crm/relatorios with a malformed period for %s: the guard first, then a 400", async (actor) => {
    const result = await call(reportsLoader, actor, "/crm/relatorios?periodo=personalizado&de=2025-02-30&ate=x");
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor].kind === "ok" ? { kind: "status", status: 400 } : PAGE_RULE[actor]);
  });

  const dealAudits = async () => (await matrix.runtime.db.select({ n: count() }).from(audit_log).where(eq(audit_log.action, "deal.export")))[0].n;

  // Issue 24: the deals' download names clients (audited) and carries commissions only for who may see them.
  for (const open of [false, true]) {
    it.each(ACTORS)(`export relatorio=negocios (corretor sees commissions: ${open}) for %s`, async (actor) => {
      if (open) await matrix.runtime.db.insert(settings).values({ key: "deal_settings", value: { salePercent: 6, rentFirstRentPercent: 100, corretorSeesCommissions: true } });
      try {
        const before = await dealAudits();
        const result = await call(reportsExportLoader, actor, "/crm/relatorios/exportar?relatorio=negocios&formato=csv&periodo=90d");
        expect(outcomeOf(result)).toEqual(API_RULE[actor]);
        expect((await dealAudits()) - before).toBe(API_RULE[actor].kind === "ok" ? 1 : 0);
        if (API_RULE[actor].kind === "ok") {
          const [header, row] = parse(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await (result as Response).arrayBuffer()).slice(1), { delimiter: ";" }) as string[][];
          expect(row).toContain("AUT-2");
          expect(header.includes("Comissão (R$)")).toBe(actor === "admin" || open);
          expect(row.includes("28800,00")).toBe(actor === "admin" || open);
        }
      } finally {
        await matrix.runtime.db.delete(settings).where(eq(settings.key, "deal_settings"));
      }
    });
  }

  for (const report of REPORT_KEYS) {
    for (const format of ["csv", "xlsx"]) {
      it.each(ACTORS)(`export relatorio=${report} formato=${format} for %s`, async (actor) => {
        const before = { audits: await audits(), views: await views() };
        const result = await call(reportsExportLoader, actor, `/crm/relatorios/exportar?relatorio=${report}&formato=${format}&periodo=90d`);
        expect(outcomeOf(result)).toEqual(API_RULE[actor]);
        if (API_RULE[actor].kind === "ok") {
          expect((result as Response).headers.get("Content-Disposition")).toMatch(new RegExp(`^attachment; filename="relatorio-${report}-.+\\.${format}"$`));
          expect(Buffer.from(await (result as Response).arrayBuffer()).toString("latin1")).not.toContain("Sigilosa");
        }
        expect({ audits: await audits(), views: await views() }).toEqual(before);
      });
    }
  }

  for (const format of ["csv", "xlsx"]) {
    it.each(ACTORS)(`export of the leads list (${format}) for %s: admins only, audited`, async (actor) => {
      const before = await audits();
      const result = await call(leadsExportLoader, actor, `/crm/leads/exportar?formato=${format}&status=novo&busca=sigilosa`);
      expect(outcomeOf(result)).toEqual(ADMIN_API_RULE[actor]);
      expect((await audits()) - before).toBe(ADMIN_API_RULE[actor].kind === "ok" ? 1 : 0);
    });

    it.each(ACTORS)(`export of the properties list (${format}) for %s`, async (actor) => {
      const result = await call(propertiesExportLoader, actor, `/crm/imoveis/exportar?formato=${format}&busca=AUT`);
      expect(outcomeOf(result)).toEqual(API_RULE[actor]);
      if (format === "csv" && API_RULE[actor].kind === "ok") {
        const text = await (result as Response).text();
        expect(text).toContain("AUT-1");
        // The partner broker is a person: only an admin's download names her.
        expect(text.includes("Parceira Sigilosa")).toBe(actor === "admin");
      }
    });
  }

  it.each(ACTORS)("a malformed leads export is refused after the guard for %s", async (actor) => {
    const result = await call(leadsExportLoader, actor, "/crm/leads/exportar?formato=doc");
    expect(outcomeOf(result)).toEqual(ADMIN_API_RULE[actor].kind === "ok" ? { kind: "status", status: 400 } : ADMIN_API_RULE[actor]);
  });
});
