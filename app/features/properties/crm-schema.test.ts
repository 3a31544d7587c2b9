import { describe, expect, it } from "vitest";
import { firstIssueMessage } from "~/lib/form-data";
import { propertyFormSchema, type PropertyFormInput } from "./crm-schema";

const valid: PropertyFormInput = {
  codigo: "ap-101",
  title: "Apartamento na praia",
  description: "Apartamento nascente perto da praia.",
  type: "apartamento",
  purpose: "venda",
  status: "disponivel",
  featured: false,
  price: "780.000,00",
  area: "98",
  bedrooms: "3",
  bathrooms: "0",
  parking_spaces: "",
  neighborhood: "Ponta Negra",
  city: "Natal",
  state: "rn",
  broker_partner: "  ",
  images: [],
};

const messageFor = (patch: Partial<PropertyFormInput>) => {
  const result = propertyFormSchema.safeParse({ ...valid, ...patch });
  return result.success ? null : firstIssueMessage(result.error);
};

describe("CRM property form rules (spec §5)", () => {
  it("uppercases the code, reads the masked price, saves empty or zero optional numbers as null", () => {
    const parsed = propertyFormSchema.parse(valid);
    expect(parsed).toMatchObject({
      codigo: "AP-101",
      price: 780000,
      area: 98,
      bedrooms: 3,
      bathrooms: null,
      parking_spaces: null,
      state: "RN",
      broker_partner: undefined,
      featured: false,
    });
    expect(propertyFormSchema.parse({ ...valid, featured: "on" }).featured).toBe(true);
  });

  it("answers with the spec's messages", () => {
    expect(messageFor({ codigo: " " })).toBe("Código é obrigatório");
    expect(messageFor({ codigo: "x".repeat(51) })).toBe("Código muito longo");
    expect(messageFor({ description: "curta" })).toBe("Descrição deve ter pelo menos 10 caracteres");
    expect(messageFor({ description: "x".repeat(2001) })).toBe("Descrição muito longa");
    expect(messageFor({ type: "" })).toBe("Selecione o tipo");
    expect(messageFor({ purpose: "permuta" })).toBe("Selecione a finalidade");
    expect(messageFor({ status: undefined })).toBe("Selecione o status");
    expect(messageFor({ price: "-1" })).toBe("Preço inválido");
    expect(messageFor({ area: "-5" })).toBe("Área inválida");
    expect(messageFor({ bedrooms: "2.5" })).toBe("Quantidade de quartos inválida");
    expect(messageFor({ bathrooms: "-1" })).toBe("Quantidade de banheiros inválida");
    expect(messageFor({ parking_spaces: "x" })).toBe("Quantidade de vagas inválida");
    expect(messageFor({ state: "RNN" })).toBe("Estado deve ter 2 caracteres");
    expect(messageFor({ broker_partner: "x".repeat(101) })).toBe("Parceiro muito longo");
  });

  it("accepts every property type, commercial spaces included", () => {
    expect(messageFor({ type: "ponto_comercial" })).toBeNull();
  });
});
