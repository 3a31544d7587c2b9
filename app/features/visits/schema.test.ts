import { describe, expect, it } from "vitest";
import { toBrokerDateTimeInput } from "~/lib/format";
import { visitFormSchema, visitStatusSchema } from "./schema";

const LEAD = "7d1f3c52-9a0e-4b8e-8f3a-2c6d5e4b1a90";
const soon = () => toBrokerDateTimeInput(new Date(Date.now() + 2 * 86_400_000));
const messageOf = (input: unknown) => {
  const result = visitFormSchema.safeParse(input);
  return result.success ? null : result.error.issues[0].message;
};

describe("visitFormSchema", () => {
  it("reads the date-time as Natal time (UTC−3) and trims the notes", () => {
    const result = visitFormSchema.parse({ lead_id: LEAD, property_id: "", scheduled_at: "2026-12-10T14:30", notes: "  Levar chave  " });
    expect(result.scheduled_at.toISOString()).toBe("2026-12-10T17:30:00.000Z");
    expect(result.property_id).toBeNull();
    expect(result.notes).toBe("Levar chave");
  });

  it("answers each bad field with its Portuguese message", () => {
    const good = { lead_id: LEAD, scheduled_at: soon() };
    expect(messageOf({ ...good, lead_id: "" })).toBe("Selecione o lead");
    expect(messageOf({ ...good, property_id: "casa" })).toBe("Imóvel inválido");
    expect(messageOf({ ...good, scheduled_at: "2026-02-30T10:00" })).toBe("Informe a data e a hora da visita");
    expect(messageOf({ ...good, scheduled_at: undefined })).toBe("Informe a data e a hora da visita");
    expect(messageOf({ ...good, scheduled_at: "1999-01-01T10:00" })).toBe("A data da visita deve estar entre um ano atrás e dois anos à frente");
    expect(messageOf({ ...good, notes: "a".repeat(1001) })).toBe("Observações muito longas (máximo de 1000 caracteres)");
    expect(messageOf({ ...good, notes: "a".repeat(1000) })).toBeNull();
    expect(messageOf({ ...good, notes: "linha 1\nlinha 2" })).toBeNull();
  });

  it("knows only the three statuses", () => {
    expect(visitStatusSchema.safeParse("realizada").success).toBe(true);
    expect(visitStatusSchema.safeParse("feita").error?.issues[0].message).toBe("Status inválido");
  });
});
