import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { deferHydration, rewriteBootstrap } from "./defer-hydration.server";

// The shape React Router's <Scripts> renders (preloads hoisted into <head> by React).
const page = [
  '<!DOCTYPE html><html lang="pt-BR"><head><title>Início – ção</title>',
  '<link rel="modulepreload" href="/assets/entry.client-A.js"/><link rel="modulepreload" href="/assets/app-core-B.js"/>',
  '</head><body><main>Olá</main>',
  '<script>window.__reactRouterContext = {};</script>',
  '<script nonce="abc" type="module" async="">;\nimport * as route0 from "/assets/root-C.js";\nimport * as route1_clientAction from "/assets/home-client-action-D.js";\nimport * as route1_main from "/assets/home-E.js";\nconst route1 = {...route1_clientAction,...route1_main};\n',
  '  window.__reactRouterManifest = {"entry":{"imports":["/assets/app-core-B.js"]}};\n  window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};\n\nimport("/assets/entry.client-A.js");</script>',
  '<script>window.__reactRouterContext.streamController.close();</script></body></html>',
].join("");

describe("rewriteBootstrap", () => {
  const out = rewriteBootstrap(page);

  it("takes the module preloads out of the HTML", () => {
    expect(out).not.toContain('rel="modulepreload"');
  });

  it("keeps the same script element with its nonce, imports nothing statically and waits for load", () => {
    const script = /<script nonce="abc" type="module" async="">([\s\S]*?)<\/script>/.exec(out)![1];
    expect(script).not.toMatch(/^import /m);
    expect(script.indexOf('addEventListener("load"')).toBeLessThan(script.indexOf("import("));
    expect(script).toContain('["/assets/entry.client-A.js","/assets/app-core-B.js"]');
    expect(script).toContain(
      'const [route0, route1_clientAction, route1_main] = await Promise.all([import("/assets/root-C.js"), import("/assets/home-client-action-D.js"), import("/assets/home-E.js")]);',
    );
    expect(script).toContain("const route1 = {...route1_clientAction,...route1_main};");
    expect(script).toContain('import("/assets/entry.client-A.js");');
  });

  it("leaves everything else alone", () => {
    expect(out).toContain("<title>Início – ção</title>");
    expect(out).toContain("<script>window.__reactRouterContext = {};</script>");
    expect(out.endsWith("<script>window.__reactRouterContext.streamController.close();</script></body></html>")).toBe(true);
    expect(rewriteBootstrap("<html><body>no scripts</body></html>")).toBe("<html><body>no scripts</body></html>");
  });

  it("gives the same result through the stream, whatever the chunking (even inside a character)", async () => {
    const bytes = Buffer.from(page, "utf8");
    for (const size of [1, 7, 64, bytes.length]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      expect(await text(Readable.from(chunks).pipe(deferHydration()))).toBe(out);
    }
    const plain = "<html><body>é</body></html>";
    expect(await text(Readable.from([Buffer.from(plain)]).pipe(deferHydration()))).toBe(plain);
  });
});
