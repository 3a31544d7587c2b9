import { type FormEvent, useEffect, useRef } from "react";
import { data, Form, Link, redirect, useNavigation, useSubmit } from "react-router";
import { toast } from "~/components/ui/toaster";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Spinner } from "~/components/ui/spinner";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { getSessionUser, getUserRole } from "~/features/auth/guard.server";
import { signInSchema, signUpSchema } from "~/features/auth/schema";

const loadSchemas = () => import("~/features/auth/schema");
import { signIn, signUp } from "~/features/auth/sessions.server";
import { clientIp } from "~/lib/client-ip.server";
import { getRuntime } from "~/runtime.server";
import { firstIssueMessage, formDataToObject } from "~/lib/form-data";
import { useRootData } from "~/root";
import type { Route } from "./+types/auth";
import { Icon } from "~/components/ui/icon";

type Mode = "login" | "cadastro";

const modeFrom = (url: URL): Mode => (url.searchParams.get("modo") === "cadastro" ? "cadastro" : "login");

/** Only CRM paths are accepted as "where to go after sign-in" (no open redirects). */
function safeNext(value: string | null): string {
  return value && /^\/crm(\/[\w\-/]*)?(\?[\w=&%-]*)?$/.test(value) ? value : "/crm";
}

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const user = await getSessionUser(request);
  // Staff who are already signed in have nothing to do here.
  if (user && (await getUserRole(user.id))) throw redirect(safeNext(url.searchParams.get("next")));
  return { mode: modeFrom(url) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = new URL(request.url);
  const form = formDataToObject(await request.formData());
  const runtime = await getRuntime();
  const ip = clientIp(request, context);

  if (form.intent === "cadastro") {
    const parsed = signUpSchema.safeParse(form);
    if (!parsed.success) return data({ error: firstIssueMessage(parsed.error), at: Date.now() }, { status: 400 });
    const result = await signUp(runtime, parsed.data, request, ip);
    if (!result.ok) return data({ error: result.message, at: Date.now() }, { status: result.status });
    throw redirect("/", { headers: result.headers });
  }

  const parsed = signInSchema.safeParse(form);
  if (!parsed.success) return data({ error: firstIssueMessage(parsed.error), at: Date.now() }, { status: 400 });
  const result = await signIn(runtime, parsed.data, request, ip);
  if (!result.ok) return data({ error: result.message, at: Date.now() }, { status: result.status });
  throw redirect(safeNext(url.searchParams.get("next")), { headers: result.headers });
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data?.mode === "cadastro" ? "Criar Conta" : "Entrar no CRM" },
  { name: "robots", content: "noindex" },
];

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const { broker } = useRootData();
  const { mode } = loaderData;
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formAction?.startsWith("/auth") === true;
  const isSignUp = mode === "cadastro";
  const toastedAt = useRef<number | undefined>(undefined);

  // The server's message (validation, wrong password, limit reached) as a toast, once per answer.
  useEffect(() => {
    if (actionData?.error && toastedAt.current !== actionData.at) {
      toastedAt.current = actionData.at;
      toast.error(actionData.error);
    }
  }, [actionData]);

  // An action that redirects away from /auth succeeded: say so while the next page loads.
  useEffect(() => {
    if (navigation.state === "loading" && navigation.formAction?.startsWith("/auth") && navigation.location.pathname !== "/auth") {
      toast.success(navigation.formData?.get("intent") === "cadastro" ? "Conta criada com sucesso!" : "Login realizado com sucesso!");
    }
  }, [navigation]);

  // The form's schema (and zod) loads with the first focus, not with the page.
  const submit = useSubmit();
  async function validateBeforeSending(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { signInSchema, signUpSchema } = await loadSchemas();
    const parsed = (isSignUp ? signUpSchema : signInSchema).safeParse(formDataToObject(new FormData(form)));
    if (!parsed.success) {
      toast.error(firstIssueMessage(parsed.error));
      return;
    }
    submit(form);
  }

  // Spec: while the CRM checks the session and role (the redirect after sign-in), a centred spinner.
  const enteringCrm = navigation.state === "loading" && navigation.location.pathname.startsWith("/crm");

  return (
    <main className="flex min-h-screen items-center justify-center bg-sand px-4 py-10">
      {enteringCrm && (
        <div className="fixed inset-0 z-50 grid place-items-center bg-white/70 backdrop-blur-sm">
          <Spinner label="Verificando acesso" />
        </div>
      )}
      <Card className="w-full max-w-md p-6 sm:p-8">
        <Link to="/" className="mb-6 flex items-center justify-center gap-2 font-bold text-navy">
          <span className="grid size-9 place-items-center rounded-md bg-primary text-white">
            <Icon name="house" className="size-5" />
          </span>
          {broker.siteName}
        </Link>
        <h1 className="text-center text-2xl font-bold">{isSignUp ? "Criar Conta" : "Entrar no CRM"}</h1>
        <p className="mt-1 text-center text-sm text-muted-foreground">
          {isSignUp ? "Cadastre-se com seu email e uma senha." : "Acesso da equipe ao painel de imóveis e leads."}
        </p>

        <Form
          method="post"
          noValidate
          onSubmit={validateBeforeSending}
          onFocus={() => void loadSchemas()}
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
          <div className="grid gap-1.5">
            <Label htmlFor="auth-password">Senha</Label>
            <Input
              id="auth-password"
              name="password"
              type="password"
              autoComplete={isSignUp ? "new-password" : "current-password"}
              required
              minLength={6}
              maxLength={128}
            />
          </div>
          <Button type="submit" size="lg" disabled={submitting}>
            {isSignUp ? <Icon name="user-plus" /> : <Icon name="log-in" />}
            {submitting ? "Aguarde..." : isSignUp ? "Criar Conta" : "Entrar"}
          </Button>
        </Form>

        <p className="mt-6 text-center text-sm">
          {isSignUp ? "Já tem uma conta? " : "Ainda não tem conta? "}
          <Link to={isSignUp ? "/auth" : "/auth?modo=cadastro"} replace className="font-semibold text-primary underline-offset-4 hover:underline">
            {isSignUp ? "Entrar" : "Criar conta"}
          </Link>
        </p>
        <p className="mt-3 text-center text-sm">
          <Link to="/" className="text-muted-foreground underline-offset-4 hover:underline">
            Voltar para o site
          </Link>
        </p>
      </Card>
    </main>
  );
}
