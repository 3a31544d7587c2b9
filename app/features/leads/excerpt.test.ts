import { describe, expect, it } from "vitest";
import { excerpt } from "./excerpt";

describe("excerpt", () => {
  it("keeps a short text whole, folding line breaks and runs of spaces", () => {
    expect(excerpt("  Olá,\n\nquero   visitar  ", 80)).toBe("Olá, quero visitar");
  });

  it("is null for no text", () => {
    expect(excerpt(null, 80)).toBeNull();
    expect(excerpt(" \n ", 80)).toBeNull();
  });

  it("cuts a long text at the last word that fits and marks the cut", () => {
    const text = "Gostaria de agendar uma visita ao apartamento de Ponta Negra no sábado pela manhã, se possível.";
    const short = excerpt(text, 40)!;
    expect(short).toBe("Gostaria de agendar uma visita ao…");
    expect(short.length).toBeLessThanOrEqual(41);
  });

  it("cuts inside a very long word rather than returning almost nothing", () => {
    expect(excerpt(`a ${"x".repeat(100)}`, 20)).toBe(`a ${"x".repeat(18)}…`);
  });
});
