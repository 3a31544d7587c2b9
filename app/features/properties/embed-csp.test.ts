import { describe, expect, it } from "vitest";
import { pageSecurityHeaders } from "./embed-csp";
import { EMBED_ORIGINS } from "./media-links";

const csp = (path?: string) => pageSecurityHeaders({ nonce: "abc", path })["Content-Security-Policy"];

describe("frame-src only on property pages", () => {
  it("lets a property page frame exactly the accepted players and tours", () => {
    const policy = csp("/imoveis/0b7f3c2e-1a2b-4c3d-9e8f-001122334455");
    const frameSrc = policy.split("; ").find((directive) => directive.startsWith("frame-src "));
    expect(frameSrc?.split(" ").slice(1)).toEqual([...EMBED_ORIGINS]);
    expect(frameSrc).toContain("https://www.youtube-nocookie.com");
    expect(frameSrc).not.toContain("https://www.youtube.com");
  });

  it("keeps every other page without frame-src (default-src 'self' applies)", () => {
    for (const path of [undefined, "/", "/imoveis", "/imoveis/nao-e-um-id", "/imoveis/0b7f3c2e-1a2b-4c3d-9e8f-001122334455/extra", "/crm/imoveis"]) {
      expect(csp(path), String(path)).not.toContain("frame-src");
      expect(csp(path)).toContain("default-src 'self'");
    }
  });
});
