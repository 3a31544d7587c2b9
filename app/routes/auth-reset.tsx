import { Form, Link, redirect, useNavigation } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { linkPage, refusal } from "~/features/auth/account-pages.server";
import { describeReset, resetPassword } from "~/features/auth/accounts.server";
import { AuthCard, DeadLinkCard } from "~/features/auth/components/auth-card";
import { useCheckedSubmit, useErrorToast } from "~/features/auth/components/form-hooks";
import { resetPasswordSchema } from "~/features/auth/schema";
import { clearSessionCookie } from "~/features/auth/sessions.server";
import { firstIssueMessage } from "~/lib/form-data";
import { asString, readBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/auth-reset";

/** The page a reset link opens (/auth/redefinir?token=…): a new password, once, within the hour. */
export async function loader({ request }: Route.LoaderArgs) {
  return linkPage(request, describeReset);
}

export async function action({ request }: Route.ActionArgs) {
  const body = await readBody(request);
  const parsed = resetPasswordSchema.safeParse({ token: asString(body.token), password: asString(body.password) });
  if (!parsed.success) return refusal(firstIssueMessage(parsed.error), 400, { expired: false });
  const runtime = await getRuntime();
  const result = await resetPassword(runtime, parsed.data.token, parsed.data.password);
  if (!result.ok) return refusal(result.message, result.status, { expired: result.expired ?? false });
  // Every session of the account ended; this browser forgets its cookie too.
  throw redirect("/auth?aviso=senha-redefinida", { headers: await clearSessionCookie(runtime) });
}

export const meta: Route.MetaFunction = () => [{ title: "Criar nova senha" }, { name: "robots", content: "noindex" }];

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formAction?.startsWith("/auth/redefinir") === true;
  useErrorToast(actionData);
  const onSubmit = useCheckedSubmit("resetPasswordSchema");

  if (!loaderData.valid || actionData?.expired) {
    return (
      <DeadLinkCard title="Criar nova senha">
        <p>Links para criar uma nova senha valem por 1 hora e só podem ser usados uma vez.</p>
        <p>
          <Link to="/auth/esqueci" className={buttonClass("outline", "sm")}>
            Pedir um novo link
          </Link>
        </p>
      </DeadLinkCard>
    );
  }

  return (
    <AuthCard
      title="Criar nova senha"
      subtitle={
        <>
          Para a conta <strong className="break-words text-foreground">{loaderData.email}</strong>. Ao trocar a senha, todas as
          sessões abertas são encerradas.
        </>
      }
    >
      <Form method="post" action="/auth/redefinir" noValidate onSubmit={onSubmit} className="mt-6 grid gap-4">
        <input type="hidden" name="token" value={loaderData.token} />
        {/* Lets the browser's password manager file the new password under the right account. */}
        <input type="hidden" name="username" autoComplete="username" value={loaderData.email} />
        <div className="grid gap-1.5">
          <Label htmlFor="reset-password">Nova senha</Label>
          <Input
            id="reset-password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={128}
            aria-describedby="reset-password-hint"
          />
          <p id="reset-password-hint" className="text-xs text-muted-foreground">
            Pelo menos 8 caracteres. Evite senhas comuns, como 12345678.
          </p>
        </div>
        <Button type="submit" size="lg" disabled={submitting}>
          <Icon name="lock" />
          {submitting ? "Aguarde..." : "Salvar nova senha"}
        </Button>
      </Form>
    </AuthCard>
  );
}
