import { describe, expect, it } from "vitest";
import { actionLabel, describeDetails, describeRecord } from "./labels";

describe("audit labels", () => {
  it("reads an entry in Portuguese", () => {
    expect(actionLabel("property.update")).toBe("Imóvel editado");
    expect(describeRecord("property", "0b7c…", { codigo: "AP-PN-101" })).toBe("Imóvel AP-PN-101");
    expect(describeRecord("lead", "3f2a9c1b-0000-4000-8000-000000000000", null, "Maria Silva")).toBe("Lead Maria Silva");
    expect(describeRecord("lead", "3f2a9c1b-0000-4000-8000-000000000000", null)).toBe("Lead 3f2a9c1b");
    expect(describeDetails({ codigo: "AP-PN-101", fields: ["price", "images"] })).toEqual(["Campos alterados: preço, fotos"]);
    expect(describeDetails({ fields: [] })).toEqual(["Nenhum campo mudou"]);
    expect(describeDetails({ codigo: "X", featured: true })).toEqual(["Marcado como destaque"]);
    expect(describeDetails({ from: null, to: "admin", source: "ADMIN_EMAIL" })).toEqual([
      "Acesso: sem acesso → Administrador",
      "Origem: configuração ADMIN_EMAIL",
    ]);
    expect(describeDetails({ role: "corretor" })).toEqual(["Acesso: Corretor"]);
  });

  it("shows what it does not know by its code, so nothing recorded is hidden", () => {
    expect(actionLabel("mail.resend")).toBe("mail.resend");
    expect(describeDetails({ attempts: 3, ok: false })).toEqual(["attempts: 3", "ok: não"]);
  });
});
