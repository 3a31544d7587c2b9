import { describe, expect, it } from "vitest";
import { NEIGHBOURHOOD_TEXT_MAX, NEIGHBOURHOOD_TEXT_MESSAGES, parseNeighbourhoodText } from "./text-schema";

describe("parseNeighbourhoodText", () => {
  it("accepts a text and trims it", () => {
    expect(parseNeighbourhoodText({ slug: "ponta-negra", text: "  Perto do Morro do Careca.\r\nPraia urbana.  " })).toEqual({
      ok: true,
      value: { slug: "ponta-negra", text: "Perto do Morro do Careca.\nPraia urbana." },
    });
  });

  it("accepts an empty text (removes the broker's text)", () => {
    expect(parseNeighbourhoodText({ slug: "tirol", text: "   " })).toEqual({ ok: true, value: { slug: "tirol", text: "" } });
  });

  it("accepts exactly the limit, counting CRLF as one character", () => {
    const lines = "a\r\n".repeat(NEIGHBOURHOOD_TEXT_MAX / 2 - 1) + "ab";
    const result = parseNeighbourhoodText({ slug: "tirol", text: lines });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value.text.length).toBe(NEIGHBOURHOOD_TEXT_MAX);
  });

  it("refuses a text one character too long, in Portuguese", () => {
    expect(parseNeighbourhoodText({ slug: "tirol", text: "a".repeat(NEIGHBOURHOOD_TEXT_MAX + 1) })).toEqual({
      ok: false,
      field: "text",
      message: "O texto pode ter no máximo 1.500 caracteres",
    });
  });

  it("refuses control characters", () => {
    expect(parseNeighbourhoodText({ slug: "tirol", text: "abc\u0000def" })).toMatchObject({ ok: false, field: "text", message: NEIGHBOURHOOD_TEXT_MESSAGES.invalid });
  });

  it("refuses a missing text or a text sent twice", () => {
    expect(parseNeighbourhoodText({ slug: "tirol" })).toMatchObject({ ok: false, field: "text", message: NEIGHBOURHOOD_TEXT_MESSAGES.missing });
    expect(parseNeighbourhoodText({ slug: "tirol", text: ["a", "b"] })).toMatchObject({ ok: false, field: "text" });
  });

  it.each([undefined, "", "Ponta Negra", "ponta_negra", "x".repeat(121), ["tirol", "tirol"]])("refuses the slug %j", (slug) => {
    expect(parseNeighbourhoodText({ slug, text: "ok" })).toEqual({ ok: false, field: "slug", message: NEIGHBOURHOOD_TEXT_MESSAGES.slug });
  });
});
