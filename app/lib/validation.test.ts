import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { signInSchema, signUpSchema } from "~/features/auth/schema";
import { fullName, optionalEmail, phone } from "./validation";
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

  it("checks sign-in and sign-up with the spec's messages", () => {
    expect(messageOf(signInSchema, { email: "a@b.co", password: "" })).toBe("Informe a senha");
    expect(messageOf(signUpSchema, { fullName: "Ana", email: "a@b.co", password: "1234567" })).toBe("Senha deve ter pelo menos 8 caracteres");
    expect(messageOf(signInSchema, { email: "a@b.co", password: "x".repeat(129) })).toBe("Senha muito longa");
    expect(messageOf(signInSchema, { email: "ab.co", password: "123456" })).toBe("Email inválido");
    expect(messageOf(signUpSchema, { fullName: "A", email: "a@b.co", password: "12345678" })).toBe(
      "Nome deve ter pelo menos 2 caracteres",
    );
  });
});
