import { data, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { subscribeAlert } from "~/features/alerts/alerts.server";
import { ALERT_MESSAGES } from "~/features/alerts/messages";
import { clientIp } from "~/lib/client-ip.server";
import { readForm, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/alerts-subscribe";

/** The 'Avise-me' form's post (decision 025): a page of its own, so it works without JavaScript. Never cached. */
export async function action({ request, context }: Route.ActionArgs) {
  const fields = await readForm(request);
  if (fields instanceof UnreadableBody) return data({ ok: false as const, message: fields.message, back: "/imoveis" }, { status: 400 });
  const runtime = await getRuntime();
  const result = await subscribeAlert(runtime.db, runtime.env, clientIp(request, context), fields);
  const query = typeof fields.q === "string" && fields.q.length <= 1000 ? fields.q.replace(/^\?/, "") : "";
  const back = `/imoveis${query ? `?${new URLSearchParams(query).toString()}` : ""}`;
  if (result.ok) {
    if (result.queued) runtime.mail.wake();
    return { ok: true as const, message: result.message, back };
  }
  return data({ ok: false as const, message: result.message, back }, { status: result.status });
}

/** A GET (a reload, a shared address) has nothing to show but, after the last cancellation, that it is done. */
export function loader({ request }: Route.LoaderArgs) {
  const cancelled = new URL(request.url).searchParams.get("cancelado") === "1";
  return data({ ok: cancelled ? (true as const) : null, message: cancelled ? ALERT_MESSAGES.cancelled : "Crie um alerta pela lista de imóveis.", back: "/imoveis" });
}

export const meta: Route.MetaFunction = () => [{ title: "Alerta de imóveis" }, { name: "robots", content: "noindex" }];

export default function AlertsSubscribePage({ actionData, loaderData }: Route.ComponentProps) {
  const result = actionData ?? loaderData;
  return (
    <section className="container-page max-w-xl py-10">
      <h1 className="font-display text-3xl font-bold">Alerta de imóveis</h1>
      <p role="status" className={result.ok === false ? "mt-4 rounded-md bg-red-50 p-3 text-red-900" : "mt-4 rounded-md bg-green-50 p-3 text-green-900"}>
        {result.message}
      </p>
      <Link to={result.back} className={`${buttonClass("outline")} mt-6`}>
        Voltar à busca
      </Link>
    </section>
  );
}
