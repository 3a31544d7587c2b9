import { redirect } from "react-router";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { linkToken, refusal } from "~/features/auth/account-pages.server";
import { AuthCard, DeadLinkCard } from "~/features/auth/components/auth-card";
import { AuthSubmitButton, LinkForm, NewPasswordField } from "~/features/auth/components/auth-form";
import { useErrorToast, useRedirectToast } from "~/features/auth/components/form-hooks";
import { acceptInvitation, describeInvitation, invitationProblem } from "~/features/auth/invitations.server";
import { acceptInviteSchema } from "~/features/auth/schema";
import { signInAfterProof } from "~/features/auth/sessions.server";
import { clientIp } from "~/lib/client-ip.server";
import { firstIssueMessage } from "~/lib/form-data";
import { asString, readBody, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/auth-invite";

const ROLE_LABELS = { admin: "Administrador", corretor: "Corretor" } as const;

/** The page an invitation link opens (/auth/convite?token=…): name and password, then the CRM. */
export async function loader({ request }: Route.LoaderArgs) {
  const token = linkToken(request);
  const found = await describeInvitation(await getRuntime(), token);
  if (found.state !== "valid") return { valid: false as const, problem: invitationProblem(found.state) };
  return { valid: true as const, email: found.email, role: found.role, token };
}

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return refusal(body.message, 400, { problem: undefined });
  const parsed = acceptInviteSchema.safeParse({
    token: asString(body.token),
    fullName: asString(body.fullName),
    password: asString(body.password),
  });
  if (!parsed.success) return refusal(firstIssueMessage(parsed.error), 400, { problem: undefined });
  const runtime = await getRuntime();
  const result = await acceptInvitation(runtime, parsed.data.token, parsed.data, clientIp(request, context));
  if (!result.ok) {
    const dead = result.state !== undefined;
    return refusal(result.message, result.status, { problem: dead ? result.message : undefined });
  }
  const { headers } = await signInAfterProof(runtime, result.email, parsed.data.password, request);
  throw redirect("/crm", { headers });
}

export const meta: Route.MetaFunction = () => [{ title: "Aceitar convite" }, { name: "robots", content: "noindex" }];

export default function AcceptInvitationPage({ loaderData, actionData }: Route.ComponentProps) {
  useErrorToast(actionData);
  useRedirectToast("/auth/convite", "Convite aceito! Bem-vindo(a) ao CRM.");

  const problem = !loaderData.valid ? loaderData.problem : actionData?.problem;
  if (problem || !loaderData.valid) {
    return (
      <DeadLinkCard title="Aceitar convite">
        <p>{problem}</p>
      </DeadLinkCard>
    );
  }

  return (
    <AuthCard
      title="Aceitar convite"
      subtitle={
        <>
          Você foi convidado(a) para o CRM como <strong className="text-foreground">{ROLE_LABELS[loaderData.role]}</strong>, com o email{" "}
          <strong className="break-words text-foreground">{loaderData.email}</strong>.
        </>
      }
    >
      <LinkForm action="/auth/convite" schema="acceptInviteSchema" link={loaderData}>
        <div className="grid gap-1.5">
          <Label htmlFor="invite-fullName">Nome completo</Label>
          <Input id="invite-fullName" name="fullName" autoComplete="name" required maxLength={100} />
        </div>
        <NewPasswordField id="invite-password" name="password" label="Senha" />
        <AuthSubmitButton action="/auth/convite" icon="user-plus">
          Aceitar convite e entrar
        </AuthSubmitButton>
      </LinkForm>
    </AuthCard>
  );
}
