import { describe, expect, it } from "vitest";
import { hydrateAfterPaint } from "./hydrate-after-paint.server";

// The shape React Router 7's <Scripts> renders (modulepreload links hoisted into <head> by
// React; the module script at the end of <body>), as seen in our production pages.
const page = (moduleScript: string) =>
  `<!DOCTYPE html><html><head><style data-href="/assets/app.css">p{}</style>` +
  `<link rel="modulepreload" href="/assets/entry.client-A.js"/><link rel="modulepreload" nonce="n" href="/assets/core-B.js"/>` +
  `<link rel="preload" href="/assets/sprite.svg" as="image"/></head><body><p>Olá</p>` +
  `<script>window.__reactRouterContext = {};</script><script nonce="n" type="module" async="">${moduleScript}</script></body></html>`;

const ROUTER_SCRIPT = `;
import * as route0 from "/assets/root-C.js";
import * as route1 from "/assets/home-D.js";
  window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};

import("/assets/entry.client-A.js");`;

describe("hydrateAfterPaint", () => {
  const out = hydrateAfterPaint(page(ROUTER_SCRIPT));

  it("takes the module preloads out of <head> and keeps every other link", () => {
    const head = out.slice(0, out.indexOf("</head>"));
    expect(head).not.toContain("modulepreload");
    expect(head).toContain('<link rel="preload" href="/assets/sprite.svg" as="image"/>');
    expect(head).toContain('<style data-href="/assets/app.css">');
  });

  it("waits for a paint, preloads the same files in order, evaluates all but the entry one per task, then the route modules and the bootstrap", () => {
    const script = /<script nonce="n" type="module" async="">([\s\S]*?)<\/script>/.exec(out)![1];
    const wait = script.indexOf("requestAnimationFrame");
    const preload = script.indexOf('["/assets/entry.client-A.js","/assets/core-B.js"]');
    const oneByOne = script.indexOf('for (const href of ["/assets/core-B.js"]) { await import(href); await new Promise((resolve) => setTimeout(resolve, 0)); }');
    const imports = script.indexOf('const [route0, route1] = await Promise.all([import("/assets/root-C.js"), import("/assets/home-D.js")]);');
    const bootstrap = script.indexOf('window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};');
    const entry = script.indexOf('import("/assets/entry.client-A.js");');
    expect([wait, preload, oneByOne, imports, bootstrap, entry].every((at) => at >= 0)).toBe(true);
    expect(wait < preload && preload < oneByOne && oneByOne < imports && imports < bootstrap && bootstrap < entry).toBe(true);
    expect(script).not.toMatch(/^\s*import \* as/m);
  });

  it("keeps the page's text and the other scripts as they were", () => {
    expect(out).toContain("<body><p>Olá</p><script>window.__reactRouterContext = {};</script>");
  });

  it("handles split route modules (several imports merged into one route object)", () => {
    const split = `;
import * as route0_clientAction from "/assets/root-action-E.js";
import * as route0_main from "/assets/root-C.js";
const route0 = {...route0_clientAction,...route0_main};
  window.__reactRouterRouteModules = {"root":route0};

import("/assets/entry.client-A.js");`;
    const script = hydrateAfterPaint(page(split));
    expect(script).toContain('const [route0_clientAction, route0_main] = await Promise.all([import("/assets/root-action-E.js"), import("/assets/root-C.js")]);');
    expect(script).toContain("const route0 = {...route0_clientAction,...route0_main};");
  });

  it("leaves a page without React Router's module script unchanged", () => {
    const plain = `<html><head><link rel="modulepreload" href="/x.js"/></head><body><script type="module">console.log(1)</script></body></html>`;
    expect(hydrateAfterPaint(plain)).toBe(plain);
    expect(hydrateAfterPaint("<p>erro</p>")).toBe("<p>erro</p>");
  });
});
