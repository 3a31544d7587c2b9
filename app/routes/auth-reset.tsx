import { redirect } from "react-router";
import { linkPage, refusal } from "~/features/auth/account-pages.server";
import { describeReset, resetPassword } from "~/features/auth/accounts.server";
import { AuthCard, DeadLinkCard } from "~/features/auth/components/auth-card";
import { AuthSubmitButton, LinkForm, NewPasswordField } from "~/features/auth/components/auth-form";
import { useErrorToast } from "~/features/auth/components/form-hooks";
import { resetPasswordSchema } from "~/features/auth/schema";
import { clearSessionCookie } from "~/features/auth/sessions.server";
import { clientIp } from "~/lib/client-ip.server";
import { firstIssueMessage } from "~/lib/form-data";
import { asString, readBody, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/auth-reset";

/** The page a reset link opens (/auth/redefinir?token=…): a new password, once, within the hour. */
export async function loader({ request }: Route.LoaderArgs) {
  return linkPage(request, describeReset);
}

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return refusal(body.message, 400, { expired: false });
  const parsed = resetPasswordSchema.safeParse({ token: asString(body.token), password: asString(body.password) });
  if (!parsed.success) return refusal(firstIssueMessage(parsed.error), 400, { expired: false });
  const runtime = await getRuntime();
  const result = await resetPassword(runtime, parsed.data.token, parsed.data.password, clientIp(request, context));
  if (!result.ok) return refusal(result.message, result.status, { expired: result.expired ?? false });
  // Every session of the account ended; this browser forgets its cookie too.
  throw redirect("/auth?aviso=senha-redefinida", { headers: await clearSessionCookie(runtime) });
}

export const meta: Route.MetaFunction = () => [{ title: "Criar nova senha" }, { name: "robots", content: "noindex" }];

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  useErrorToast(actionData);

  if (!loaderData.valid || actionData?.expired) {
    return (
      <DeadLinkCard title="Criar nova senha" next={{ to: "/auth/esqueci", label: "Pedir um novo link" }}>
        <p>Links para criar uma nova senha valem por 1 hora e só podem ser usados uma vez.</p>
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
      <LinkForm action="/auth/redefinir" schema="resetPasswordSchema" link={loaderData}>
        <NewPasswordField id="reset-password" name="password" label="Nova senha" />
        <AuthSubmitButton action="/auth/redefinir" icon="lock">
          Salvar nova senha
        </AuthSubmitButton>
      </LinkForm>
    </AuthCard>
  );
}
