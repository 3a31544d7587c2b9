import * as z from "zod/mini";
import { email, fullName } from "~/lib/validation";

/** Sign-in and sign-up rules (spec §5), shared by the /auth form and its action. */

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

const password = () =>
  z.string({ error: "Senha deve ter pelo menos 6 caracteres" }).check(
    z.minLength(PASSWORD_MIN, { error: "Senha deve ter pelo menos 6 caracteres" }),
    z.maxLength(PASSWORD_MAX, { error: "Senha muito longa" }),
  );

export const signInSchema = z.object({
  email: email(),
  password: password(),
});

export const signUpSchema = z.object({
  fullName: fullName(),
  email: email(),
  password: password(),
});

export type SignInInput = z.infer<typeof signInSchema>;
export type SignUpInput = z.infer<typeof signUpSchema>;
