import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushPropertyViews, pendingViews } from "~/features/reports/views.server";
import * as propertyRoute from "~/routes/property";
import { createApp } from "../../server/app";
import { insertProperty } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { resourceRoutesBuild } from "../helpers/server-build";

/**
 * Views of a property page counted by the real HTTP server (server/app.ts) around the real
 * property route, however the address is spelled (issue 21, finding 4): React Router answers
 * /IMOVEIS/<ID IN CAPITALS>.data with the page's data, so that is a view as well; the document
 * under another spelling is sent to its one address (301), where the view is counted once.
 */

const BROWSER = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";

describe.each(DATABASE_KINDS)("property views through the HTTP server on %s", (kind) => {
  let test: TestRuntime;
  let app: ReturnType<typeof createApp>;
  let id: string;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    const clientDir = path.join(test.dataDir, "client");
    fs.mkdirSync(clientDir, { recursive: true });
    const build = resourceRoutesBuild({ "routes/property": { path: "imoveis/:id", module: propertyRoute } }, clientDir);
    app = createApp({ build, clientDir, publicUrl: "http://localhost:3000", trustProxy: false, pageCacheMaxBytes: 0 });
    id = (await insertProperty(test.runtime, { codigo: "VIEW-HTTP-1", title: "Casa das visitas contadas" })).id;
  });
  afterAll(async () => {
    await flushPropertyViews(test.runtime.db).catch(() => {});
    await test.stop();
  });

  const get = (pathname: string) => app.request(pathname, { headers: { "User-Agent": BROWSER } });

  it("counts the page's data under any spelling of its address, once per request", async () => {
    await flushPropertyViews(test.runtime.db);
    for (const spelling of [`/imoveis/${id}.data`, `/IMOVEIS/${id.toUpperCase()}.data`, `/Imoveis/${id}.data`]) {
      const before = pendingViews();
      const response = await get(spelling);
      expect(response.status, spelling).toBe(200);
      expect(pendingViews() - before, spelling).toBe(1);
    }
  });

  it("sends the document under another spelling to its one address, counting nothing there", async () => {
    const before = pendingViews();
    const response = await get(`/IMOVEIS/${id.toUpperCase()}`);
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe(`/imoveis/${id}`);
    expect(pendingViews()).toBe(before);
  });
});
