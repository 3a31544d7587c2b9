import { Form, Link } from "react-router";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { refusal } from "~/features/auth/account-pages.server";
import { requestPasswordReset } from "~/features/auth/accounts.server";
import { AuthCard, AuthNotice } from "~/features/auth/components/auth-card";
import { AuthSubmitButton } from "~/features/auth/components/auth-form";
import { useCheckedSubmit, useErrorToast } from "~/features/auth/components/form-hooks";
import { forgotPasswordSchema } from "~/features/auth/schema";
import { clientIp } from "~/lib/client-ip.server";
import { firstIssueMessage } from "~/lib/form-data";
import { asString, readBody, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/auth-forgot";

/** 'Esqueci minha senha': an e-mail address in, the same answer out whether or not it has an account. */
export async function action({ request, context }: Route.ActionArgs) {
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return refusal(body.message, 400);
  const parsed = forgotPasswordSchema.safeParse({ email: asString(body.email) });
  if (!parsed.success) return refusal(firstIssueMessage(parsed.error), 400);
  const result = await requestPasswordReset(await getRuntime(), parsed.data.email, clientIp(request, context));
  if (!result.ok) return refusal(result.message, result.status);
  return { sent: true as const, email: parsed.data.email, at: Date.now() };
}

export const meta: Route.MetaFunction = () => [{ title: "Esqueci minha senha" }, { name: "robots", content: "noindex" }];

export default function ForgotPasswordPage({ actionData }: Route.ComponentProps) {
  useErrorToast(actionData && "error" in actionData ? actionData : undefined);
  const onSubmit = useCheckedSubmit("forgotPasswordSchema");
  const sent = actionData && "sent" in actionData ? actionData : null;

  return (
    <AuthCard
      title="Esqueci minha senha"
      subtitle={sent ? undefined : "Informe o email da sua conta e enviaremos um link para criar uma nova senha."}
      footer={
        <p className="mt-6 text-center text-sm">
          Lembrou a senha?{" "}
          <Link to="/auth" className="font-semibold text-primary underline-offset-4 hover:underline">
            Entrar
          </Link>
        </p>
      }
    >
      {sent ? (
        <AuthNotice tone="success" title="Verifique seu email">
          <p>
            Se houver uma conta com o email <strong className="break-words text-foreground">{sent.email}</strong>, enviamos para ele
            um link para criar uma nova senha. O link vale por 1 hora e só pode ser usado uma vez.
          </p>
          <p>Não chegou em alguns minutos? Confira a caixa de spam.</p>
        </AuthNotice>
      ) : (
        <Form method="post" action="/auth/esqueci" noValidate onSubmit={onSubmit} className="mt-6 grid gap-4">
          <div className="grid gap-1.5">
            <Label htmlFor="forgot-email">Email</Label>
            <Input id="forgot-email" name="email" type="email" autoComplete="email" inputMode="email" required maxLength={255} />
          </div>
          <AuthSubmitButton action="/auth/esqueci" icon="mail">
            Enviar link
          </AuthSubmitButton>
        </Form>
      )}
    </AuthCard>
  );
}
