import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lead_events, visits } from "~/db/schema";
import { REPORT_KEYS } from "~/features/reports/tables";
import { countPropertyView, flushPropertyViews, stopPropertyViews } from "~/features/reports/views.server";
import { loader as leadsExportLoader } from "~/routes/crm-leads-export";
import { loader as privacyExportLoader } from "~/routes/crm-privacy-export";
import { loader as propertiesExportLoader } from "~/routes/crm-properties-export";
import { loader as reportExportLoader } from "~/routes/crm-reports-export";
import { context } from "../helpers/authorization";
import { createSignedInUser, insertLead, insertProperty, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * CSV formula injection (issue 21, item 5): every CSV the CRM writes — each report table, the
 * leads list, the properties list and a person's data export — is read back with a real CSV
 * parser (csv-parse) twice: with ';', as Excel in pt-BR reads it, and with ',', as a spreadsheet
 * in another locale would. No cell may start with a formula character (= + - @ tab CR) in either
 * reading; a number written by us ("-2,50", "12,5%") is not a formula. The ',' reading is lenient
 * (relax_quotes), like spreadsheets are: a ';'-separated file is not valid ','-separated CSV.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const OUR_NUMBER = /^-?\d+(,\d+)?%?$/;

/** Texts a visitor or a portal could send, each hiding a formula somewhere a reader might start a cell. */
const HOSTILE = {
  name: "Bia,=1+2,",
  phone: "+55 84 99999-1234",
  notes: 'linha 1\r\n=1+2\n-3\tok;@SUM(A1),+1 e "aspas",=2',
  portal: "Zap,=HYPERLINK(1)",
  title: "Casa,=1+2, na praia",
  neighborhood: "Tirol;=1+2",
  address: "Rua A,-1",
  note: "ok,@cmd|' /C calc'!A0",
  visit: "-visita;=1",
};

function cells(text: string, delimiter: ";" | ","): string[] {
  expect(text.charCodeAt(0), "UTF-8 BOM").toBe(0xfeff);
  const rows: string[][] = parse(text.slice(1), delimiter === ";" ? { delimiter } : { delimiter, relax_quotes: true, relax_column_count: true });
  return rows.flat();
}

function expectNoFormula(text: string, label: string) {
  for (const delimiter of [";", ","] as const) {
    const dangerous = cells(text, delimiter).filter((cell) => FORMULA_START.test(cell) && !OUR_NUMBER.test(cell));
    expect(dangerous, `${label}, read with '${delimiter}'`).toEqual([]);
  }
}

describe.each(DATABASE_KINDS)("CSV exports on %s", (kind) => {
  let test: TestRuntime;
  let admin: TestUser;
  let leadId: string;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    admin = await createSignedInUser(test.runtime, "admin");
    const property = await insertProperty(test.runtime, {
      codigo: "CSV-1",
      title: HOSTILE.title,
      neighborhood: HOSTILE.neighborhood,
      street_address: HOSTILE.address,
      created_at: new Date("2024-04-01T12:00:00Z"),
    });
    const lead = await insertLead(test.runtime, {
      full_name: HOSTILE.name,
      phone: HOSTILE.phone,
      email: "bia@exemplo.com.br",
      notes: HOSTILE.notes,
      origin: "portal",
      portal_name: HOSTILE.portal,
      portal_lead_id: "csv-1",
      property_id: property.id,
      created_at: new Date("2024-05-10T12:00:00Z"),
    });
    leadId = lead.id;
    await test.runtime.db.insert(lead_events).values({ lead_id: lead.id, kind: "note", body: HOSTILE.note, actor_name: "=Equipe" });
    await test.runtime.db.insert(visits).values({ lead_id: lead.id, property_id: property.id, scheduled_at: new Date("2024-05-12T12:00:00Z"), notes: HOSTILE.visit });
    // Sold in the period (the sales table), and viewed (the most viewed table).
    await test.runtime.db.execute(sql`update properties set status = 'vendido' where id = ${property.id}`);
    await test.runtime.db.execute(sql`update property_status_events set at = '2024-05-20T12:00:00Z' where property_id = ${property.id} and kind = 'status'`);
    countPropertyView(property.id, new Date("2024-05-11T12:00:00Z"));
    await flushPropertyViews(test.runtime.db);
  });
  afterAll(async () => {
    await stopPropertyViews(test.runtime.db);
    await test.stop();
  });

  const download = async (loader: (args: never) => unknown, url: string) => {
    const response = (await loader({ request: makeRequest(url, { cookie: admin.cookie }), params: {}, context } as never)) as Response;
    expect(response.status, url).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
  };

  it("every report table: no formula cell with ';' or ','", async () => {
    for (const key of REPORT_KEYS) {
      const text = await download(reportExportLoader, `/crm/relatorios/exportar?relatorio=${key}&formato=csv&periodo=personalizado&de=2024-05-01&ate=2024-05-31`);
      expectNoFormula(text, key);
    }
  });

  it("the leads list: no formula cell, and the ';' reading gives the texts back, neutralised", async () => {
    const text = await download(leadsExportLoader, "/crm/leads/exportar?formato=csv");
    expectNoFormula(text, "leads");
    const [header, row] = parse(text.slice(1), { delimiter: ";" }) as string[][];
    const cell = (name: string) => row[header.indexOf(name)];
    expect(cell("Nome")).toBe("Bia,'=1+2,");
    expect(cell("Telefone")).toBe("'+55 84 99999-1234");
    expect(cell("Observações")).toBe('linha 1\r\n\'=1+2\n\'-3\tok;\'@SUM(A1),\'+1 e "aspas",\'=2');
    expect(cell("Imóvel (código)")).toBe("CSV-1");
  });

  it("the properties list: no formula cell", async () => {
    const text = await download(propertiesExportLoader, "/crm/imoveis/exportar?formato=csv");
    expectNoFormula(text, "imoveis");
    expect(text).toContain("Tirol;'=1+2");
  });

  it("a person's data export (LGPD): no formula cell", async () => {
    const text = await download(privacyExportLoader, `/crm/privacidade/exportar?lead=${leadId}&formato=csv`);
    expectNoFormula(text, "privacidade");
    const rows = parse(text.slice(1), { delimiter: ";" }) as string[][];
    expect(rows.map((row) => row[0])).toEqual(expect.arrayContaining(["tipo", "Lead", "Anotação", "Visita"]));
  });
});
