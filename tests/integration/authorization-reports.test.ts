import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { audit_log, property_views } from "~/db/schema";
import { REPORT_KEYS } from "~/features/reports/tables";
import { loader as leadsExportLoader } from "~/routes/crm-leads-export";
import { loader as propertiesExportLoader } from "~/routes/crm-properties-export";
import { loader as reportsExportLoader } from "~/routes/crm-reports-export";
import { loader as reportsLoader } from "~/routes/crm-reports";
import { ACTORS, type Actor, ADMIN_API_RULE, API_RULE, context, matrixRuntime, outcomeOf, PAGE_RULE } from "../helpers/authorization";
import { insertLead, insertProperty, makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";

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
