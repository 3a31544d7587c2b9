import { useRef } from "react";
import { data, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { changeOwnPassword } from "~/features/auth/accounts.server";
import { NewPasswordField } from "~/features/auth/components/auth-form";
import { useCheckedSubmit } from "~/features/auth/components/form-hooks";
import { getCurrentSession, requireStaff } from "~/features/auth/guard.server";
import { changePasswordSchema } from "~/features/auth/schema";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { handlePushAction, isPushIntent, loadPushAccount } from "~/features/push/account.server";
import { PushAlertsCard } from "~/features/push/components/push-card";
import { firstIssueMessage } from "~/lib/form-data";
import { asString, readBody, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-account";

/**
 * 'Minha conta': a staff member changes their own password (their other sessions end), and turns
 * push alerts on or off for their devices (features/push; intents push-subscribe, push-remove,
 * push-preferences — a post without an intent is the password form).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request);
  const push = await loadPushAccount(await getRuntime(), staff.id);
  return { name: staff.name, email: staff.email, push };
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request);
  const current = await getCurrentSession(request);
  if (!current) return data({ ok: false, message: "Sessão encerrada. Entre de novo." }, { status: 401 });
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return data({ ok: false, message: body.message }, { status: 400 });
  if (isPushIntent(body.intent)) return handlePushAction(await getRuntime(), staff, body.intent, body);
  const parsed = changePasswordSchema.safeParse({ currentPassword: asString(body.currentPassword), newPassword: asString(body.newPassword) });
  if (!parsed.success) return data({ ok: false, message: firstIssueMessage(parsed.error) }, { status: 400 });
  const result = await changeOwnPassword(await getRuntime(), { id: staff.id, email: staff.email, sessionId: current.sessionId }, parsed.data);
  if (!result.ok) return data({ ok: false, message: result.message }, { status: result.status });
  return { ok: true, message: "Senha alterada. As suas outras sessões foram encerradas." };
}

export const meta: Route.MetaFunction = () => [{ title: "Minha conta | CRM" }];

export default function CrmAccountPage({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher<ActionAnswer>();
  const form = useRef<HTMLFormElement>(null);
  useAnswerToast(fetcher, () => form.current?.reset());
  const busy = fetcher.state !== "idle";
  const onSubmit = useCheckedSubmit("changePasswordSchema", fetcher);

  return (
    <div className="grid gap-6">
      <header>
        <h1 className="text-2xl font-bold">Minha conta</h1>
        <p className="text-sm text-muted-foreground">
          {loaderData.name} · <span className="break-all">{loaderData.email}</span>
        </p>
      </header>
      <Card className="max-w-xl p-6">
        <h2 className="text-lg font-semibold">Alterar senha</h2>
        <p className="mt-1 text-sm text-muted-foreground">Ao alterar a senha, as suas sessões em outros aparelhos são encerradas.</p>
        <fetcher.Form ref={form} method="post" action="/crm/conta" noValidate onSubmit={onSubmit} className="mt-5 grid gap-4">
          <input type="hidden" name="username" autoComplete="username" value={loaderData.email} />
          <div className="grid gap-1.5">
            <Label htmlFor="account-current">Senha atual</Label>
            <Input id="account-current" name="currentPassword" type="password" autoComplete="current-password" required maxLength={128} />
          </div>
          <NewPasswordField id="account-new" name="newPassword" label="Nova senha" />
          <div>
            <Button type="submit" disabled={busy}>
              <Icon name="lock" />
              {busy ? "Aguarde..." : "Alterar senha"}
            </Button>
          </div>
        </fetcher.Form>
      </Card>
      <PushAlertsCard data={loaderData.push} />
    </div>
  );
}
