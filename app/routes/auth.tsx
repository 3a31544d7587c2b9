import { useEffect } from "react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { toast } from "~/components/ui/toaster";
import { Spinner } from "~/components/ui/spinner";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { AuthCard, AuthNotice } from "~/features/auth/components/auth-card";
import { AuthSubmitButton, NewPasswordField } from "~/features/auth/components/auth-form";
import { loadAccountSchemas, useCheckedSubmit, useErrorToast, useRedirectToast } from "~/features/auth/components/form-hooks";
import { refusal } from "~/features/auth/account-pages.server";
import { signUp } from "~/features/auth/accounts.server";
import { getSessionUser, getUserRole } from "~/features/auth/guard.server";
import { signInSchema, signUpSchema } from "~/features/auth/schema";
import { signIn } from "~/features/auth/sessions.server";
import { clientIp } from "~/lib/client-ip.server";
import { firstIssueMessage } from "~/lib/form-data";
import { asString, readBody, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import { isDatabaseUnavailable } from "~/db/availability.server";
import { DATABASE_UNAVAILABLE_MESSAGE } from "~/lib/unavailable";
import type { Route } from "./+types/auth";

type Mode = "login" | "cadastro";

const modeFrom = (url: URL): Mode => (url.searchParams.get("modo") === "cadastro" ? "cadastro" : "login");

/** Notices other account pages send people here with (?aviso=…); anything else shows nothing. */
const NOTICES = {
  "senha-redefinida": "Senha alterada. Entre com a nova senha.",
} as const;

/** Only CRM paths are accepted as "where to go after sign-in" (no open redirects). */
function safeNext(value: string | null): string {
  return value && /^\/crm(\/[\w\-/]*)?(\?[\w=&%-]*)?$/.test(value) ? value : "/crm";
}

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const user = await getSessionUser(request);
  // Staff who are already signed in have nothing to do here.
  if (user && (await getUserRole(user.id))) throw redirect(safeNext(url.searchParams.get("next")));
  const notice = url.searchParams.get("aviso");
  return { mode: modeFrom(url), notice: notice && notice in NOTICES ? NOTICES[notice as keyof typeof NOTICES] : null };
}

export async function action(args: Route.ActionArgs) {
  try {
    return await answer(args);
  } catch (error) {
    // The database cannot answer (issue 21): the form stays, with what was typed and a message.
    if (isDatabaseUnavailable(error)) return refusal(DATABASE_UNAVAILABLE_MESSAGE, 503);
    throw error;
  }
}

async function answer({ request, context }: Route.ActionArgs) {
  const url = new URL(request.url);
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return refusal(body.message, 400);
  const form = { intent: asString(body.intent), fullName: asString(body.fullName), email: asString(body.email), password: asString(body.password) };
  const runtime = await getRuntime();
  const ip = clientIp(request, context);

  if (form.intent === "cadastro") {
    const parsed = signUpSchema.safeParse(form);
    if (!parsed.success) return refusal(firstIssueMessage(parsed.error), 400);
    const result = await signUp(runtime, parsed.data, ip);
    if (!result.ok) return refusal(result.message, result.status);
    // The same answer whether or not the address had an account: what differs is the e-mail.
    return { signedUp: true as const, email: parsed.data.email, at: Date.now() };
  }

  const parsed = signInSchema.safeParse(form);
  if (!parsed.success) return refusal(firstIssueMessage(parsed.error), 400);
  const result = await signIn(runtime, parsed.data, request, ip);
  if (!result.ok) return refusal(result.message, result.status);
  throw redirect(safeNext(url.searchParams.get("next")), { headers: result.headers });
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data?.mode === "cadastro" ? "Criar Conta" : "Entrar no CRM" },
  { name: "robots", content: "noindex" },
];

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const { mode, notice } = loaderData;
  const navigation = useNavigation();
  const isSignUp = mode === "cadastro";
  const signedUp = actionData && "signedUp" in actionData ? actionData : null;

  // The server's message (validation, wrong password, limit reached) as a toast, once per answer.
  useErrorToast(actionData && "error" in actionData ? actionData : undefined);
  useEffect(() => {
    if (signedUp) toast.success("Conta criada com sucesso!");
  }, [signedUp]);
  // A sign-in redirects away from /auth; a sign-up stays here.
  useRedirectToast("/auth", "Login realizado com sucesso!");

  // The form's schema (and zod) loads with the first focus, not with the page.
  const validateBeforeSending = useCheckedSubmit(isSignUp ? "signUpSchema" : "signInSchema");

  // Spec: while the CRM checks the session and role (the redirect after sign-in), a centred spinner.
  const enteringCrm = navigation.state === "loading" && navigation.location.pathname.startsWith("/crm");

  if (isSignUp && signedUp) {
    return (
      <AuthCard title="Criar Conta">
        <AuthNotice tone="success" title="Conta criada com sucesso!">
          <p>
            Enviamos um link de confirmação para <strong className="break-words text-foreground">{signedUp.email}</strong>. Abra o
            email e siga o link para ativar a conta: ele vale por 24 horas.
          </p>
          <p>Não chegou em alguns minutos? Confira a caixa de spam.</p>
        </AuthNotice>
        <p className="mt-6 text-center text-sm">
          <Link to="/auth" replace className="font-semibold text-primary underline-offset-4 hover:underline">
            Ir para o login
          </Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <>
      {enteringCrm && (
        <div className="fixed inset-0 z-50 grid place-items-center bg-white/70 backdrop-blur-sm">
          <Spinner label="Verificando acesso" />
        </div>
      )}
      <AuthCard
        title={isSignUp ? "Criar Conta" : "Entrar no CRM"}
        subtitle={isSignUp ? "Cadastre-se com seu email e uma senha." : "Acesso da equipe ao painel de imóveis e leads."}
        footer={
          <p className="mt-6 text-center text-sm">
            {isSignUp ? "Já tem uma conta? " : "Ainda não tem conta? "}
            <Link to={isSignUp ? "/auth" : "/auth?modo=cadastro"} replace className="font-semibold text-primary underline-offset-4 hover:underline">
              {isSignUp ? "Entrar" : "Criar conta"}
            </Link>
          </p>
        }
      >
        {notice && !isSignUp && <AuthNotice tone="success" title={notice} />}
        <Form
          method="post"
          noValidate
          onSubmit={validateBeforeSending}
          onFocus={() => void loadAccountSchemas()}
          className="mt-6 grid gap-4"
          key={mode}
        >
          <input type="hidden" name="intent" value={isSignUp ? "cadastro" : "login"} />
          {isSignUp && (
            <div className="grid gap-1.5">
              <Label htmlFor="auth-fullName">Nome completo</Label>
              <Input id="auth-fullName" name="fullName" autoComplete="name" required maxLength={100} />
            </div>
          )}
          <div className="grid gap-1.5">
            <Label htmlFor="auth-email">Email</Label>
            <Input id="auth-email" name="email" type="email" autoComplete="email" inputMode="email" required maxLength={255} />
          </div>
          {isSignUp ? (
            <NewPasswordField id="auth-password" name="password" label="Senha" />
          ) : (
            <div className="grid gap-1.5">
              <Label htmlFor="auth-password">Senha</Label>
              <Input id="auth-password" name="password" type="password" autoComplete="current-password" required maxLength={128} />
              <p className="text-right text-sm">
                <Link to="/auth/esqueci" className="text-primary underline-offset-4 hover:underline">
                  Esqueci minha senha
                </Link>
              </p>
            </div>
          )}
          <AuthSubmitButton action="/auth" icon={isSignUp ? "user-plus" : "log-in"}>
            {isSignUp ? "Criar Conta" : "Entrar"}
          </AuthSubmitButton>
        </Form>
      </AuthCard>
    </>
  );
}
