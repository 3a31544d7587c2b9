import { describe, expect, it } from "vitest";
import { canonicalPath, loggedPath } from "./request-path";

describe("canonicalPath", () => {
  it("gives every spelling React Router matches as one page the same path", () => {
    for (const spelling of ["/sobre", "/SOBRE", "/SoBrE", "/s%6Fbre", "/s%6fBRE", "/sobre/", "/sobre//", "//sobre", "/%73obre"]) {
      expect(canonicalPath(spelling), spelling).toBe("/sobre");
    }
    expect(canonicalPath("/IMOVEIS/0B7F3C2E-1A2B-4C3D-9E8F-001122334455")).toBe("/imoveis/0b7f3c2e-1a2b-4c3d-9e8f-001122334455");
    expect(canonicalPath("/Crm/Leads.data")).toBe("/crm/leads.data");
    expect(canonicalPath("/_root.data")).toBe("/_root.data");
    expect(canonicalPath("/")).toBe("/");
    expect(canonicalPath("")).toBe("/");
  });

  it("keeps escapes of reserved characters (upper-case hex), and never starts with two slashes", () => {
    expect(canonicalPath("/%2fevil.example")).toBe("/%2Fevil.example");
    expect(canonicalPath("//evil.example/")).toBe("/evil.example");
    expect(canonicalPath("/p%c3%a1gina")).toBe("/p%C3%A1gina");
    expect(canonicalPath("/P%C3%81GINA")).toBe("/p%C3%81gina");
    expect(canonicalPath("/100%25")).toBe("/100%25");
    // Broken escapes are text.
    expect(canonicalPath("/%zz%")).toBe("/%zz%");
  });

  it("leaves the case of names where it matters: photos, feed tokens, build files", () => {
    expect(canonicalPath("/media/AbC-123/800.webp")).toBe("/media/AbC-123/800.webp");
    expect(canonicalPath("/MEDIA/AbC-123/800.webp")).toBe("/media/AbC-123/800.webp");
    expect(canonicalPath("/Calendario/Tok_EN-x.ics")).toBe("/calendario/Tok_EN-x.ics");
    expect(canonicalPath("/FEEDS/VRSYNC/Tok_EN-x.xml")).toBe("/feeds/vrsync/Tok_EN-x.xml");
    expect(canonicalPath("/Assets/entry.client-B4xQ.js")).toBe("/assets/entry.client-B4xQ.js");
    // Only those prefixes: a page named like one is a page.
    expect(canonicalPath("/Mediacao")).toBe("/mediacao");
    expect(canonicalPath("/FEEDS/Outro")).toBe("/feeds/outro");
  });
});

describe("loggedPath", () => {
  it("hides the feeds' tokens however the path is spelled", () => {
    expect(loggedPath("/calendario/abcDEF_123-xyz.ics")).toBe("/calendario/[token]");
    expect(loggedPath("/CALENDARIO/abcDEF_123-xyz.ics")).toBe("/calendario/[token]");
    expect(loggedPath("/feeds/vrsync/abcDEF_123-xyz0123.xml")).toBe("/feeds/vrsync/[token]");
    expect(loggedPath("/Feeds/VRSync/abcDEF_123-xyz0123.xml")).toBe("/feeds/vrsync/[token]");
    expect(loggedPath("/%63alendario/abcDEF.ics")).toBe("/calendario/[token]");
    expect(loggedPath("/CRM/Visitas")).toBe("/crm/visitas");
  });
});
