import { describe, expect, it } from "vitest";
import { parseListFilters } from "~/features/properties/filters";
import { describeFilters } from "./describe";
import { alertSchema } from "./schema";

describe("alertSchema ('Avise-me' form)", () => {
  it("accepts an e-mail alone, and an optional phone in the site's format", () => {
    expect(alertSchema.parse({ email: " a@b.com ", q: "?tipo=casa" })).toEqual({ email: "a@b.com", phone: undefined, q: "tipo=casa" });
    expect(alertSchema.parse({ email: "a@b.com", phone: "(84) 99999-9999" }).phone).toBe("(84) 99999-9999");
    expect(alertSchema.parse({ email: "a@b.com", phone: "  " }).phone).toBeUndefined();
  });

  it("refuses bad e-mails, phones and over-long searches with Portuguese messages", () => {
    const message = (value: unknown) => {
      const result = alertSchema.safeParse(value);
      return result.success ? null : result.error.issues[0].message;
    };
    expect(message({ email: "nada" })).toBe("Email inválido");
    expect(message({ email: "a@b.com", phone: "12345" })).toBe("Telefone inválido");
    expect(message({ email: "a@b.com", phone: "(84) abcde-fghi" })).toMatch(/Telefone inválido/);
    expect(message({ email: "a@b.com", q: "x".repeat(1001) })).toBe("Busca inválida ou longa demais");
    expect(message({ email: ["a@b.com"] })).toBe("Email inválido");
  });
});

describe("describeFilters", () => {
  it("says the search in words", () => {
    expect(describeFilters(parseListFilters(new URLSearchParams("tipo=apartamento&finalidade=venda&bairro=Capim Macio&quartos=3&preco_max=600000")))).toBe(
      "Apartamento · Venda · Capim Macio · 3 quartos · até R$\u00a0600.000",
    );
    expect(describeFilters(parseListFilters(new URLSearchParams("")))).toBe("Qualquer tipo");
  });
});
