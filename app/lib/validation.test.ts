import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { fullName, hasInvalidCharacters, optionalEmail, optionalText, phone, text } from "./validation";
import { firstIssueMessage } from "./form-data";

const messageOf = (schema: z.ZodMiniType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? null : firstIssueMessage(result.error);
};

describe("shared field rules (spec §5)", () => {
  it("accepts Brazilian phone formats and explains the expected one", () => {
    for (const ok of ["(84) 99999-9999", "(84)99999-9999", "(84) 9999-9999", "99999-9999"]) {
      expect(messageOf(phone(), ok)).toBeNull();
    }
    expect(messageOf(phone(), "84 99999 9999")).toBe("Telefone inválido. Use formato (84) 99999-9999");
    expect(messageOf(phone(), "12345")).toBe("Telefone inválido");
    expect(messageOf(phone(), "84999999999")).toBe("Telefone inválido. Use formato (84) 99999-9999");
    expect(messageOf(phone(), "(84) 99999-99999999999")).toBe("Telefone inválido");
  });

  it("trims names before checking their length", () => {
    expect(messageOf(fullName(), "  A  ")).toBe("Nome deve ter pelo menos 2 caracteres");
    expect(fullName().parse("  Ana  ")).toBe("Ana");
    expect(messageOf(fullName(), "x".repeat(101))).toBe("Nome muito longo");
  });

  it("treats an empty optional email as none", () => {
    const schema = z.object({ email: optionalEmail() });
    expect(schema.parse({ email: "   " }).email).toBeUndefined();
    expect(messageOf(schema, { email: "nope" })).toBe("Email inválido");
    expect(messageOf(schema, { email: `${"a".repeat(250)}@x.com` })).toBe("Email muito longo");
  });
});

describe("characters a keyboard does not type", () => {
  it("refuses control characters, line separators and half characters in one-line text", () => {
    for (const bad of ["a\u0000b", "a\u0007", "\u001b[31m", "a\u007fb", "a\u0085b", "a\u2028b", "a\nb", "a\tb", "a\ud800b", "a\udc00"]) {
      expect(hasInvalidCharacters(bad), JSON.stringify(bad)).toBe(true);
    }
    for (const good of ["Maria Silva", "José d'Ávila", "李小龙", "Ana 😀", "Zoë\u00a0Müller"]) {
      expect(hasInvalidCharacters(good), good).toBe(false);
    }
    expect(messageOf(fullName(), "Maria\u0000Silva")).toBe("Nome contém caracteres inválidos");
  });

  it("keeps line breaks and tabs in multi-line text only", () => {
    const message = text(1, 100, { min: "curta", max: "longa" }, { multiline: true });
    expect(messageOf(message, "linha 1\r\nlinha 2\tfim")).toBeNull();
    expect(messageOf(message, "linha 1\u0000")).toBe("Caracteres inválidos");
    const notes = optionalText(100, "longa", { multiline: true, invalid: "Notas contêm caracteres inválidos" });
    expect(messageOf(notes, "ok\nok")).toBeNull();
    expect(messageOf(notes, "\u001b")).toBe("Notas contêm caracteres inválidos");
    expect(messageOf(notes, 42)).toBe("Notas contêm caracteres inválidos");
  });
});
