import { data, useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { Table, Td, Th } from "~/components/ui/table";
import { requireAdmin } from "~/features/auth/guard.server";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { getMailStatus, isMailId, listProblemMail, retryMail, type ProblemMail } from "~/features/mail/admin.server";
import { MailNotice } from "~/features/mail/components/mail-notice";
import { mailKindLabel } from "~/features/mail/labels";
import { formatDateTime } from "~/lib/format";
import { asString, readBody, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-emails";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const runtime = await getRuntime();
  const [status, problems] = await Promise.all([getMailStatus(runtime), listProblemMail(runtime.db)]);
  return { status, problems };
}

/** 'Tentar novamente': back to the queue with a fresh series of attempts, and deliver soon. */
export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return data({ ok: false, message: body.message }, { status: 400 });
  const id = asString(body.id);
  if (!isMailId(id)) return data({ ok: false, message: "Pedido inválido" }, { status: 400 });
  const runtime = await getRuntime();
  if (!(await retryMail(runtime.db, id))) {
    return data({ ok: false, message: "Este e-mail já foi enviado ou está sendo enviado agora." }, { status: 409 });
  }
  runtime.mail.wake();
  return {
    ok: true,
    message: runtime.mail.enabled
      ? "E-mail colocado na fila de envio."
      : "E-mail colocado na fila; será enviado quando o SMTP for configurado.",
  };
}

export const meta: Route.MetaFunction = () => [{ title: "E-mails | CRM" }];

function RetryButton({ mail }: { mail: ProblemMail }) {
  const fetcher = useFetcher<ActionAnswer>({ key: `mail-retry-${mail.id}` });
  useAnswerToast(fetcher);
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action="/crm/emails">
      <input type="hidden" name="id" value={mail.id} />
      <Button type="submit" variant="outline" size="sm" disabled={busy}>
        <Icon name="mail" />
        Tentar novamente<span className="sr-only"> o e-mail para {mail.to}</span>
      </Button>
    </fetcher.Form>
  );
}

const attemptsLabel = (n: number) => `${n} ${n === 1 ? "tentativa" : "tentativas"}`;

function Situation({ mail }: { mail: ProblemMail }) {
  return (
    <div className="grid justify-items-start gap-1">
      {mail.status === "failed" ? <Badge variant="danger">Falhou</Badge> : <Badge variant="warning">Nova tentativa</Badge>}
      <span className="text-xs text-muted-foreground">
        {attemptsLabel(mail.attempts)}
        {mail.status === "pending" && <>, próxima em {formatDateTime(mail.nextAttemptAt)}</>}
      </span>
    </div>
  );
}

/** Admins see whether e-mail is on, and which messages keep failing (with the server's answer). */
export default function CrmEmailsPage({ loaderData }: Route.ComponentProps) {
  const { status, problems } = loaderData;
  const counters = [
    { label: "Na fila", value: status.pending },
    { label: "Em nova tentativa", value: status.retrying },
    { label: "Falharam", value: status.failed },
  ];
  return (
    <div className="grid grid-cols-1 gap-6">
      <header>
        <h1 className="text-2xl font-bold">E-mails</h1>
        <p className="text-sm text-muted-foreground">
          Confirmações de cadastro, links de nova senha e convites saem por aqui. Um envio que falha é tentado de novo
          automaticamente por algumas horas antes de aparecer como falho.
        </p>
      </header>
      {status.enabled ? (
        <p className="flex items-center gap-2 text-sm">
          <Icon name="circle-check" className="size-5 text-green-700" /> O envio de e-mails está ativado.
        </p>
      ) : (
        <MailNotice status={status} showLink={false} />
      )}
      <ul className="grid grid-cols-3 gap-3">
        {counters.map((counter) => (
          <li key={counter.label}>
            <Card className="p-4">
              <p className="text-sm text-muted-foreground">{counter.label}</p>
              <p className="text-2xl font-bold">{counter.value}</p>
            </Card>
          </li>
        ))}
      </ul>
      <section aria-labelledby="problem-mail" className="grid grid-cols-1 gap-3">
        <h2 id="problem-mail" className="text-lg font-semibold">
          E-mails com problema
        </h2>
        {problems.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nenhum e-mail com problema.</p>
        ) : (
          <Card>
            <div className="hidden xl:block">
              <Table>
                <thead>
                  <tr>
                    <Th>Criado em</Th>
                    <Th>Tipo</Th>
                    <Th>Destinatário</Th>
                    <Th>Situação</Th>
                    <Th>Última resposta do servidor</Th>
                    <Th>
                      <span className="sr-only">Ações</span>
                    </Th>
                  </tr>
                </thead>
                <tbody>
                  {problems.map((mail) => (
                    <tr key={mail.id}>
                      <Td>{formatDateTime(mail.createdAt)}</Td>
                      <Td>{mailKindLabel(mail.kind)}</Td>
                      <Td className="break-all">{mail.to}</Td>
                      <Td>
                        <Situation mail={mail} />
                      </Td>
                      <Td className="max-w-xs break-words text-muted-foreground">{mail.lastError ?? "—"}</Td>
                      <Td>
                        <RetryButton mail={mail} />
                      </Td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </div>
            <ul className="grid gap-3 p-3 xl:hidden">
              {problems.map((mail) => (
                <li key={mail.id} className="grid gap-2 rounded-lg border border-border p-4 text-sm">
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <p className="font-semibold">{mailKindLabel(mail.kind)}</p>
                    <Situation mail={mail} />
                  </div>
                  <p className="break-all">{mail.to}</p>
                  <p className="text-muted-foreground">Criado em {formatDateTime(mail.createdAt)}</p>
                  {mail.lastError && <p className="break-words text-muted-foreground">Resposta do servidor: {mail.lastError}</p>}
                  <RetryButton mail={mail} />
                </li>
              ))}
            </ul>
          </Card>
        )}
      </section>
    </div>
  );
}
