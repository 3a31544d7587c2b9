import { describe, expect, it } from "vitest";
import { captacaoSchema, ownerSchema, parseOwnerSearch } from "./schema";

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe("owner schema", () => {
  it("keeps a valid owner, trimming text, storing the CPF/CNPJ as digits and empty optionals as undefined", () => {
    const result = ownerSchema.safeParse({ full_name: "  Maria da Silva ", phone: "(84) 99999-0000", email: "", document: "529.982.247-25", notes: " " });
    expect(result.success && result.data).toEqual({ full_name: "Maria da Silva", phone: "(84) 99999-0000", email: undefined, document: "52998224725", notes: undefined, report_opt_out: false });
    expect(ownerSchema.safeParse({ full_name: "Empresa Ltda", document: "11.222.333/0001-81" }).data?.document).toBe("11222333000181");
  });
  it("answers each bad field with its Portuguese message", () => {
    expect(firstMessage(ownerSchema.safeParse({ full_name: "M" }))).toBe("Nome deve ter pelo menos 2 caracteres");
    expect(firstMessage(ownerSchema.safeParse({ full_name: "M".repeat(121) }))).toBe("Nome muito longo (máximo 120 caracteres)");
    expect(firstMessage(ownerSchema.safeParse({ full_name: "Maria", phone: "123" }))).toBe("Telefone inválido. Use formato (84) 99999-9999");
    expect(firstMessage(ownerSchema.safeParse({ full_name: "Maria", email: "maria@" }))).toBe("Email inválido");
    expect(firstMessage(ownerSchema.safeParse({ full_name: "Maria", document: "111.111.111-11" }))).toBe("CPF ou CNPJ inválido: confira os números");
    expect(firstMessage(ownerSchema.safeParse({ full_name: "Maria", document: "1".repeat(30) }))).toBe("CPF ou CNPJ inválido: confira os números");
    expect(firstMessage(ownerSchema.safeParse({ full_name: "Maria", notes: "x".repeat(2001) }))).toBe("Observações muito longas (máximo 2000 caracteres)");
    expect(firstMessage(ownerSchema.safeParse({ full_name: "Maria\u0000" }))).toBe("Nome contém caracteres inválidos");
  });
});

describe("captação schema", () => {
  const base = { authorization_type: "exclusiva", starts_on: "2026-01-01", ends_on: "2026-06-30", commission: "6,5", keys_location: "Portaria" };
  it("reads a commission with a comma or a point and an optional %", () => {
    expect(captacaoSchema.safeParse(base).data?.commission).toBe(6.5);
    expect(captacaoSchema.safeParse({ ...base, commission: "5%" }).data?.commission).toBe(5);
    expect(captacaoSchema.safeParse({ ...base, commission: "" }).data?.commission).toBeUndefined();
  });
  it("refuses bad values with Portuguese messages", () => {
    expect(firstMessage(captacaoSchema.safeParse({ ...base, authorization_type: "x" }))).toBe("Escolha o tipo de autorização");
    expect(firstMessage(captacaoSchema.safeParse({ ...base, commission: "100,01" }))).toBe("Comissão inválida: informe um percentual entre 0 e 100");
    expect(firstMessage(captacaoSchema.safeParse({ ...base, commission: "-1" }))).toBe("Comissão inválida: informe um percentual entre 0 e 100");
    expect(firstMessage(captacaoSchema.safeParse({ ...base, ends_on: "2026-13-01" }))).toBe("Data inválida");
    expect(firstMessage(captacaoSchema.safeParse({ ...base, ends_on: "2025-12-31" }))).toBe("A data de término deve ser igual ou posterior à de início");
    expect(firstMessage(captacaoSchema.safeParse({ ...base, keys_location: "k".repeat(201) }))).toBe("Local das chaves muito longo (máximo 200 caracteres)");
  });
  it("limits the search to 100 characters", () => {
    expect(parseOwnerSearch(" ana ")).toEqual({ ok: true, q: "ana" });
    expect(parseOwnerSearch("a".repeat(101)).ok).toBe(false);
  });
});
