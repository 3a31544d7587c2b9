import { Link, redirect } from "react-router";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { linkPage, refusal } from "~/features/auth/account-pages.server";
import { confirmEmail, describeVerification } from "~/features/auth/accounts.server";
import { AuthCard, DeadLinkCard } from "~/features/auth/components/auth-card";
import { AuthSubmitButton, LinkForm } from "~/features/auth/components/auth-form";
import { useErrorToast, useRedirectToast } from "~/features/auth/components/form-hooks";
import { getUserRole } from "~/features/auth/guard.server";
import { verifyEmailSchema } from "~/features/auth/schema";
import { signInAfterProof } from "~/features/auth/sessions.server";
import { firstIssueMessage } from "~/lib/form-data";
import { asString, readBody, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/auth-verify";

/**
 * The page a verification link opens (/auth/verificar?token=…). The person types the password
 * they chose at sign-up: the link proves the address, the password proves it is their sign-up
 * (see accounts.server.ts, confirmEmail). Then they are signed in.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return linkPage(request, describeVerification);
}

export async function action({ request }: Route.ActionArgs) {
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return refusal(body.message, 400, { expired: false });
  const parsed = verifyEmailSchema.safeParse({ token: asString(body.token), password: asString(body.password) });
  if (!parsed.success) return refusal(firstIssueMessage(parsed.error), 400, { expired: false });
  const runtime = await getRuntime();
  const result = await confirmEmail(runtime, parsed.data.token, parsed.data.password);
  if (!result.ok) return refusal(result.message, result.status, { expired: result.expired ?? false });
  const { headers, userId } = await signInAfterProof(runtime, result.email, parsed.data.password, request);
  // Staff (an account that had a role before it was verified) go to the CRM; others to the site.
  throw redirect((await getUserRole(userId)) ? "/crm" : "/", { headers });
}

export const meta: Route.MetaFunction = () => [{ title: "Confirmar email" }, { name: "robots", content: "noindex" }];

export default function VerifyEmailPage({ loaderData, actionData }: Route.ComponentProps) {
  useErrorToast(actionData);
  useRedirectToast("/auth/verificar", "Email confirmado! Sua conta está ativa.");

  if (!loaderData.valid || actionData?.expired) {
    return (
      <DeadLinkCard title="Confirmar email">
        <p>Links de confirmação valem por 24 horas e só podem ser usados uma vez. Se você já confirmou, é só entrar.</p>
        <p>Se o link expirou, entre com seu email e senha: enviaremos um novo link.</p>
      </DeadLinkCard>
    );
  }

  return (
    <AuthCard
      title="Confirmar email"
      subtitle={
        <>
          Falta pouco: digite a senha que você escolheu ao criar a conta{" "}
          <strong className="break-words text-foreground">{loaderData.email}</strong>.
        </>
      }
    >
      <LinkForm action="/auth/verificar" schema="verifyEmailSchema" link={loaderData}>
        <div className="grid gap-1.5">
          <Label htmlFor="verify-password">Senha</Label>
          <Input id="verify-password" name="password" type="password" autoComplete="current-password" required maxLength={128} />
        </div>
        <AuthSubmitButton action="/auth/verificar" icon="circle-check">
          Confirmar e entrar
        </AuthSubmitButton>
      </LinkForm>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        Não lembra a senha?{" "}
        <Link to="/auth/esqueci" className="font-semibold text-primary underline-offset-4 hover:underline">
          Criar uma nova
        </Link>
      </p>
    </AuthCard>
  );
}
