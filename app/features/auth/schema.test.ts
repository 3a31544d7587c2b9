import { describe, expect, it } from "vitest";
import type * as z from "zod/mini";
import { firstIssueMessage } from "~/lib/form-data";
import { signInSchema, signUpSchema } from "./schema";

const messageOf = (schema: z.ZodMiniType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? null : firstIssueMessage(result.error);
};

describe("account forms (spec §5)", () => {
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
