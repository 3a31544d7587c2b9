import fs from "node:fs";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { whatsapp_clicks } from "~/db/schema";
import { parsePeriod } from "~/features/reports/period";
import { loadReport } from "~/features/reports/reports.server";
import { reportTables } from "~/features/reports/tables";
import { loadBrokerProfile } from "~/features/settings/settings.server";
import { resetTapLimits, TAP_LIMIT } from "~/features/whatsapp/redirect.server";
import * as robotsRoute from "~/routes/robots";
import * as whatsappRoute from "~/routes/whatsapp";
import { createApp } from "../../server/app";
import { isCacheable } from "../../server/request-rules";
import { createSignedInUser, insertProperty } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { resourceRoutesBuild } from "../helpers/server-build";

/**
 * The public site's WhatsApp buttons (issue 25, decision 028) through the real HTTP server: a tap
 * by a browser records one row and lands on the wa.me address the button had before (written
 * here by hand, as the page wrote it); a bot's, a link preview's or a signed-in staff member's
 * tap lands there too but records nothing; no query sends anyone anywhere but the broker's own
 * chat, and none is a 500. The reports' WhatsApp figures are checked against plain SQL counts.
 */

const BROWSER = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";
const BOTS = ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "WhatsApp/2.23.20.0 A", "facebookexternalhit/1.1", ""];
const PUBLIC_URL = "http://localhost:3000";
const SITE_GREETING = "Olá! Vim pelo site e gostaria de falar sobre imóveis.";

describe.each(DATABASE_KINDS)("the /whatsapp redirect on %s", (kind) => {
  let test: TestRuntime;
  let app: ReturnType<typeof createApp>;
  let number: string;
  let listing: { id: string; codigo: string };

  const exec = async <T = Record<string, unknown>>(query: SQL) => ((await test.runtime.db.execute(query)) as unknown as { rows: T[] }).rows;
  const clicks = () => exec<{ page: string; property_id: string | null }>(sql`select page, property_id::text as property_id from whatsapp_clicks order by at, id`);
  const tap = (pathname: string, headers: Record<string, string> = { "User-Agent": BROWSER }, method = "GET") => app.request(pathname, { method, headers });

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    const clientDir = path.join(test.dataDir, "client");
    fs.mkdirSync(clientDir, { recursive: true });
    const build = resourceRoutesBuild(
      { "routes/whatsapp": { path: "whatsapp", module: whatsappRoute }, "routes/robots": { path: "robots.txt", module: robotsRoute } },
      clientDir,
    );
    // The page cache on: the redirect must never be answered from it.
    app = createApp({ build, clientDir, publicUrl: PUBLIC_URL, trustProxy: false, pageCacheMaxBytes: 1_000_000 });
    number = (await loadBrokerProfile(test.runtime.db)).whatsapp;
    listing = await insertProperty(test.runtime, { codigo: "WA-101", title: "Casa com quintal em Pitimbu", price: 450000, purpose: "venda" });
  });
  afterAll(async () => {
    await test.stop();
  });
  beforeEach(async () => {
    resetTapLimits();
    await test.runtime.db.delete(whatsapp_clicks);
  });

  it("records one tap of a browser on a listing's button and lands on the listing's old wa.me message", async () => {
    const oldHref = `https://wa.me/${number}?text=${encodeURIComponent(`Olá! Tenho interesse no imóvel "Casa com quintal em Pitimbu" (código WA-101), R$\u00a0450.000. ${PUBLIC_URL}/imoveis/${listing.id}`)}`;
    const response = await tap("/whatsapp?pagina=imovel&imovel=WA-101");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(oldHref);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await clicks()).toEqual([{ page: "imovel", property_id: listing.id }]);
    // Again: a second tap is a second row (the page cache kept nothing).
    expect((await tap("/whatsapp?pagina=imovel&imovel=WA-101")).headers.get("location")).toBe(oldHref);
    expect(await clicks()).toHaveLength(2);
    expect(isCacheable("GET", "/whatsapp", undefined)).toBe(false);
  });

  it("sends the general buttons to the messages they had: the greeting, or none", async () => {
    expect((await tap("/whatsapp?pagina=home&mensagem=site")).headers.get("location")).toBe(`https://wa.me/${number}?text=${encodeURIComponent(SITE_GREETING)}`);
    expect((await tap("/whatsapp?pagina=sobre")).headers.get("location")).toBe(`https://wa.me/${number}`);
    expect((await tap("/whatsapp")).headers.get("location")).toBe(`https://wa.me/${number}`);
    expect(await clicks()).toEqual([
      { page: "home", property_id: null },
      { page: "sobre", property_id: null },
      { page: "outra", property_id: null },
    ]);
  });

  it("records nothing for bots, link previews, a missing User-Agent, prefetches, HEAD or signed-in staff, and still redirects", async () => {
    const expected = (await tap("/whatsapp?pagina=imovel&imovel=WA-101", { "User-Agent": BROWSER }, "HEAD")).headers.get("location");
    expect(expected).toMatch(/^https:\/\/wa\.me\/\d+\?text=/);
    const staff = await createSignedInUser(test.runtime, "corretor");
    const requests: Record<string, string>[] = [
      ...BOTS.map((agent) => ({ "User-Agent": agent })),
      { "User-Agent": BROWSER, "Sec-Purpose": "prefetch" },
      { "User-Agent": BROWSER, Cookie: staff.cookie },
    ];
    for (const headers of requests) {
      const response = await tap("/whatsapp?pagina=imovel&imovel=WA-101", headers);
      expect(response.status, JSON.stringify(headers)).toBe(302);
      expect(response.headers.get("location"), JSON.stringify(headers)).toBe(expected);
    }
    expect(await clicks()).toEqual([]);
  });

  it("sends an unknown listing code to the general greeting, recorded without a listing", async () => {
    for (const code of ["NAO-EXISTE", "wa-101x", "%27%3B%20drop%20table%20properties%3B--"]) {
      const response = await tap(`/whatsapp?pagina=imovel&imovel=${code}`);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(`https://wa.me/${number}?text=${encodeURIComponent(SITE_GREETING)}`);
    }
    // The code is matched as the listing stores it (upper case), as the 'Código' search does.
    expect((await tap("/whatsapp?pagina=imovel&imovel=wa-101")).headers.get("location")).toContain(encodeURIComponent("(código WA-101)"));
    expect((await clicks()).map((row) => row.property_id)).toEqual([null, null, null, listing.id]);
  });

  it("answers any malformed query with a redirect to the broker's own chat, never elsewhere and never a 500, recording only what reads as our link", async () => {
    const queries = [
      "pagina=https://evil.example",
      "pagina=imovel&imovel=" + "A".repeat(51),
      "pagina=imovel&imovel=%20%20",
      "mensagem=https%3A%2F%2Fevil.example",
      "pagina=home&mensagem=outra",
      "pagina=%ZZ",
      "imovel=%E0%A4%A&pagina=imovel",
      "pagina=home&pagina=evil",
      "url=https://evil.example&to=//evil.example&next=https://evil.example",
    ];
    for (const query of queries) {
      const response = await tap(`/whatsapp?${query}`);
      expect(response.status, query).toBe(302);
      const location = new URL(response.headers.get("location")!);
      expect(location.origin, query).toBe("https://wa.me");
      expect(location.pathname, query).toBe(`/${number}`);
      expect(response.headers.get("location"), query).not.toContain("evil");
    }
    // Recorded: a broken code is an unknown listing; a repeated page counts as its first; unknown
    // extra parameters are ignored (a tap from some page, "outra"). Everything else, not.
    expect(await clicks()).toEqual([
      { page: "imovel", property_id: null },
      { page: "home", property_id: null },
      { page: "outra", property_id: null },
    ]);
  });

  it(`records at most ${TAP_LIMIT.max} taps of one address per window, and redirects them all`, async () => {
    for (let i = 0; i < TAP_LIMIT.max + 3; i++) {
      expect((await tap("/whatsapp?pagina=contato")).status).toBe(302);
    }
    expect(await clicks()).toHaveLength(TAP_LIMIT.max);
  });

  it("is kept from search engines by robots.txt", async () => {
    const robots = await (await tap("/robots.txt")).text();
    expect(robots).toMatch(/^Disallow: \/whatsapp$/m);
  });
});

describe.each(DATABASE_KINDS)("the reports' WhatsApp figures on %s", (kind) => {
  let test: TestRuntime;
  const ids = {} as Record<"A" | "B" | "C", string>;
  const exec = async <T = Record<string, unknown>>(query: SQL) => ((await test.runtime.db.execute(query)) as unknown as { rows: T[] }).rows;
  const period = (from: string, to: string) => {
    const result = parsePeriod(new URLSearchParams({ periodo: "personalizado", de: from, ate: to }), new Date("2025-12-31T12:00:00Z"));
    if (!result.ok) throw new Error(result.message);
    return result.period;
  };

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    ids.A = (await insertProperty(test.runtime, { codigo: "WR-A" })).id;
    ids.B = (await insertProperty(test.runtime, { codigo: "WR-B" })).id;
    ids.C = (await insertProperty(test.runtime, { codigo: "WR-C" })).id;
    const taps: [string, string | null, string][] = [
      ["2025-03-01T03:00:00Z", ids.A, "imovel"], // 01/03 00:00 in Natal: March
      ["2025-03-01T02:59:59Z", ids.A, "imovel"], // still 28/02 in Natal: the previous period
      ["2025-03-10T12:00:00Z", ids.A, "imovel"],
      ["2025-03-15T12:00:00Z", ids.B, "imovel"],
      ["2025-03-20T12:00:00Z", null, "home"],
      ["2025-03-31T23:00:00Z", null, "contato"], // 31/03 20:00 in Natal
      ["2025-04-01T03:00:00Z", ids.B, "imovel"], // April
      ["2025-02-10T12:00:00Z", ids.B, "imovel"],
      ["2025-02-11T12:00:00Z", null, "sobre"],
    ];
    await test.runtime.db.insert(whatsapp_clicks).values(taps.map(([at, property_id, page]) => ({ at: new Date(at), property_id, page: page as never })));
    // Views, so the listings are in the most-viewed table (C: views, no tap).
    for (const id of [ids.A, ids.B, ids.C]) await exec(sql`insert into property_views (property_id, day, views) values (${id}, '2025-03-12', 5)`);
  });
  afterAll(async () => {
    await test.stop();
  });

  /** Taps of broker days [from, to], by SQL that shares nothing with reports.server.ts. */
  const counted = async (from: string, to: string, propertyId?: string) => {
    const [row] = await exec<{ n: number }>(sql`
      select count(*)::int as n from whatsapp_clicks
      where (at at time zone 'America/Fortaleza')::date between ${from}::date and ${to}::date
      ${propertyId ? sql`and property_id = ${propertyId}` : sql``}`);
    return Number(row.n);
  };

  it.each([
    ["2025-03-01", "2025-03-31"],
    ["2025-02-01", "2025-02-28"],
    ["2025-03-10", "2025-03-15"],
    ["2025-01-01", "2025-12-31"],
  ])("period %s to %s: the total and each listing's column equal SQL counts", async (from, to) => {
    const chosen = period(from, to);
    const report = await loadReport(test.runtime.db, chosen);
    expect(report.summary.whatsapp).toEqual({ current: await counted(from, to), previous: await counted(chosen.previous.from, chosen.previous.to) });
    const byCode = Object.fromEntries(report.mostViewed.map((row) => [row.codigo, row.whatsapp]));
    for (const [code, id] of [["WR-A", ids.A], ["WR-B", ids.B], ["WR-C", ids.C]] as const) {
      if (code in byCode) expect(byCode[code], code).toBe(await counted(from, to, id));
    }
  });

  it("states March by hand, in the summary and in the most-viewed table (page and downloads alike)", async () => {
    const report = await loadReport(test.runtime.db, period("2025-03-01", "2025-03-31"));
    expect(report.summary.whatsapp).toEqual({ current: 5, previous: 3 });
    const tables = reportTables(report);
    expect(tables.resumo.rows.find((row) => row[0] === "Contatos por WhatsApp")).toEqual(["Contatos por WhatsApp", 5, 3]);
    const column = tables.visualizacoes.columns.findIndex((entry) => entry.header === "Contatos por WhatsApp");
    expect(column).toBeGreaterThan(0);
    const byCode = Object.fromEntries(tables.visualizacoes.rows.map((row) => [row[0], row[column]]));
    expect(byCode).toEqual({ "WR-A": 2, "WR-B": 1, "WR-C": 0 });
  });

  it("keeps a deleted listing's taps in the period's total", async () => {
    const before = (await loadReport(test.runtime.db, period("2025-03-01", "2025-03-31"))).summary.whatsapp.current;
    const gone = await insertProperty(test.runtime, { codigo: "WR-GONE" });
    await test.runtime.db.insert(whatsapp_clicks).values({ at: new Date("2025-03-05T12:00:00Z"), property_id: gone.id, page: "imovel" });
    await exec(sql`delete from properties where id = ${gone.id}`);
    expect((await loadReport(test.runtime.db, period("2025-03-01", "2025-03-31"))).summary.whatsapp.current).toBe(before! + 1);
  });
});
