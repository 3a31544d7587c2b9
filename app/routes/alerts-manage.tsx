import { data, Link, redirect } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { loadManagePage, manageAlert } from "~/features/alerts/alerts.server";
import { ALERT_MESSAGES } from "~/features/alerts/messages";
import { readForm, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/alerts-manage";

/**
 * An e-mail address's alerts, reached by the link of any of its alert e-mails (decision 025): no
 * account. Opening the link changes nothing (mail scanners open links); confirming and cancelling
 * are buttons (POST), and so is a mail client's one-click unsubscribe. Never cached.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const { db } = await getRuntime();
  const page = await loadManagePage(db, params.token);
  if (!page) throw data(ALERT_MESSAGES.notFound, { status: 404 });
  return page;
}

export async function action({ request, params }: Route.ActionArgs) {
  const fields = await readForm(request);
  if (fields instanceof UnreadableBody) return data({ ok: false as const, message: fields.message }, { status: 400 });
  const { db } = await getRuntime();
  const result = await manageAlert(db, params.token, fields);
  // The address's last alert: its links are gone, so is this page.
  if (result.ok && result.none) return redirect("/alertas?cancelado=1");
  return result.ok ? { ok: true as const, message: result.message } : data({ ok: false as const, message: result.message }, { status: result.status });
}

export const meta: Route.MetaFunction = () => [{ title: "Seus alertas de imóveis" }, { name: "robots", content: "noindex" }];

export default function AlertsManagePage({ loaderData, actionData }: Route.ComponentProps) {
  const { email, alerts, ownStatus } = loaderData;
  return (
    <section className="container-page max-w-2xl py-10">
      <h1 className="font-display text-3xl font-bold">Seus alertas de imóveis</h1>
      <p className="mt-2 text-muted-foreground">Alertas do e-mail {email}. Cancelar apaga o alerta: nenhum e-mail dele será enviado depois.</p>
      {actionData && (
        <p role="status" className={actionData.ok ? "mt-4 rounded-md bg-green-50 p-3 text-green-900" : "mt-4 rounded-md bg-red-50 p-3 text-red-900"}>
          {actionData.message}
        </p>
      )}
      {ownStatus === "pending" && (
        <form method="post" className="mt-6 rounded-lg border border-border bg-card p-4">
          <p>Confirme para começar a receber, no máximo uma vez por dia, os imóveis novos ou que baixaram de preço nesta busca.</p>
          <button type="submit" name="intent" value="confirm" className={`${buttonClass()} mt-3`}>
            Confirmar alerta
          </button>
        </form>
      )}
      {alerts.length === 0 ? (
        <p className="mt-6">Nenhum alerta ativo neste e-mail.</p>
      ) : (
        <ul className="mt-6 grid gap-3">
          {alerts.map((alert) => (
            <li key={alert.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border bg-card p-4">
              <div className="min-w-0">
                <Link to={alert.href} className="font-semibold underline-offset-4 hover:underline">
                  {alert.description}
                </Link>
                <p className="text-sm text-muted-foreground">{alert.status === "confirmed" ? "Ativo" : "Aguardando confirmação"}</p>
              </div>
              <form method="post">
                <input type="hidden" name="alert" value={alert.id} />
                <button type="submit" name="intent" value="cancel" className={buttonClass("outline")}>
                  Cancelar
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
