import type http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineKey } from "~/features/pwa/offline-key.server";
import * as manifestRoute from "~/routes/crm-manifest";
import { loader as layoutLoader } from "~/routes/crm-layout";
import * as signOutRoute from "~/routes/crm-sign-out";
import { createApp, isPrivateResponse } from "../../server/app";
import { ACTORS, type Actor, context, matrixRuntime, outcomeOf, PAGE_RULE, PUBLIC_RULE } from "../helpers/authorization";
import { makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";
import { resourceRoutesBuild } from "../helpers/server-build";

/**
 * The installable CRM's files over the real HTTP server (issue 25, decision 029): the worker, the
 * offline page and the manifest are public, the same for everyone, with the caching each needs
 * (the worker and the offline page revalidated every time, never no-store; the manifest an hour);
 * the worker may claim /crm itself. What is private stays so: the key naming a user's saved pages
 * reaches only that user's CRM pages, the pages themselves are never stored on the server, and
 * 'Sair' tells the browser to forget the site's storage. Static files are served from public/, as
 * the build copies them.
 */

const PUBLIC_URL = "http://localhost:3000";
const CLIENT_DIR = path.resolve("public");

describe.each(DATABASE_KINDS)("installable CRM on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  let server: http.Server;
  let base = "";

  beforeAll(async () => {
    const build = resourceRoutesBuild(
      {
        "routes/crm-manifest": { path: "crm/manifest.webmanifest", module: manifestRoute },
        "routes/crm-sign-out": { path: "crm/sair", module: signOutRoute },
      },
      CLIENT_DIR,
    );
    const app = createApp({ build, clientDir: CLIENT_DIR, publicUrl: PUBLIC_URL, trustProxy: false, pageCacheMaxBytes: 0 });
    server = await new Promise<http.Server>((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started as http.Server)) as http.Server;
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (pathname: string, actor: Actor = "anonymous") => {
    const cookie = matrix.cookieOf(actor);
    return fetch(base + pathname, { headers: cookie ? { Cookie: cookie } : {} });
  };

  it.each(ACTORS)("/crm/sw.js for %s: the script, revalidated every time, allowed to claim /crm", async (actor) => {
    const response = await get("/crm/sw.js", actor);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^(text|application)\/javascript/);
    expect(response.headers.get("Cache-Control")).toBe("no-cache");
    expect(response.headers.get("Service-Worker-Allowed")).toBe("/crm");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    // The worker runs under its own answer's policy: fetches to our origin only.
    expect(response.headers.get("Content-Security-Policy")).toMatch(/default-src 'self'.*script-src 'self'.*connect-src 'self'/);
    const script = await response.text();
    for (const section of ["1. Names and limits", "2. Install / activate", "3. Fetch", "4. Saved pages", "5. Web Push"]) expect(script).toContain(section);
  });

  it.each(ACTORS)("/crm/offline.html for %s: public, revalidated, nobody's data", async (actor) => {
    const response = await get("/crm/offline.html", actor);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(response.headers.get("Cache-Control")).toBe("no-cache");
    const html = await response.text();
    expect(html).toContain("Você está sem conexão");
    expect(html).not.toMatch(/@|\(84\)/);
  });

  it.each(ACTORS)("/crm/manifest.webmanifest for %s: the manifest, kept an hour", async (actor) => {
    const response = await get("/crm/manifest.webmanifest", actor);
    expect(outcomeOf(response)).toEqual(PUBLIC_RULE[actor]);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/manifest\+json/);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=3600");
    expect(response.headers.get("Set-Cookie")).toBeNull();
    const manifest = await response.json();
    expect(manifest).toMatchObject({ start_url: "/crm", scope: "/crm", display: "standalone", short_name: "CRM" });
    for (const icon of manifest.icons as { src: string }[]) {
      const file = await get(icon.src, actor);
      expect(file.status, icon.src).toBe(200);
      expect(file.headers.get("Content-Type")).toBe("image/png");
      expect(file.headers.get("Cache-Control")).toBe("public, max-age=3600");
      await file.body?.cancel();
    }
  });

  it("the saved pages' key goes only to its own user's CRM pages, and is not the id", async () => {
    for (const actor of ACTORS) {
      const result = await settle(() => layoutLoader({ request: makeRequest("/crm", { cookie: matrix.cookieOf(actor) }), params: {}, context } as never));
      expect(outcomeOf(result), actor).toEqual(PAGE_RULE[actor]);
      const headers = new Headers((result as { init?: { headers?: HeadersInit } | null }).init?.headers);
      if (actor === "corretor" || actor === "admin") {
        const key = headers.get("X-Offline-Key");
        expect(key).toBe(offlineKey(matrix.users[actor].id));
        expect(key).toMatch(/^[0-9a-f]{32}$/);
        expect(key).not.toContain(matrix.users[actor].id.replace(/-/g, "").slice(0, 8));
      } else {
        expect(headers.get("X-Offline-Key")).toBeNull();
      }
    }
    expect(offlineKey(matrix.users.admin.id)).not.toBe(offlineKey(matrix.users.corretor.id));
  });

  it("'Sair' answers with Clear-Site-Data: the saved pages and the worker go with the session", async () => {
    const response = await fetch(`${base}/crm/sair`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: matrix.users.noRole.cookie, Origin: PUBLIC_URL, "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/auth");
    expect(response.headers.get("Clear-Site-Data")).toBe('"storage"');
    expect(response.headers.get("Set-Cookie")).toMatch(/better-auth\.session_token=;/);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  it("only the worker, the offline page and the manifest are public under /crm: the CRM's pages stay private", () => {
    const plain = new Headers();
    for (const file of ["/crm/sw.js", "/crm/offline.html", "/crm/manifest.webmanifest"]) expect(isPrivateResponse(file, undefined, plain), file).toBe(false);
    for (const page of ["/crm", "/crm.data", "/crm/leads", "/crm/leads.data", "/crm/leads/0b5f7a00-0000-4000-8000-000000000000", "/crm/sw.js.data", "/crm/offline"]) {
      expect(isPrivateResponse(page, undefined, plain), page).toBe(true);
    }
    // Even these answers are private the moment they would set a cookie.
    expect(isPrivateResponse("/crm/manifest.webmanifest", undefined, new Headers({ "Set-Cookie": "a=b" }))).toBe(true);
  });
});
