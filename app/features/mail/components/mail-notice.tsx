import { Link } from "react-router";
import { Icon } from "~/components/ui/icon";
import { cn } from "~/lib/utils";

export type MailNoticeStatus = { enabled: boolean; pending: number; failed: number };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Tells an admin that e-mail is off (nobody gets confirmation, password or invitation links) or
 * that messages could not be sent. Renders nothing when all is well.
 */
export function MailNotice({ status, showLink = true }: { status: MailNoticeStatus; showLink?: boolean }) {
  if (status.enabled && status.failed === 0) return null;
  const off = !status.enabled;
  return (
    <div
      role="status"
      className={cn(
        "flex gap-3 rounded-lg border p-4 text-sm",
        off ? "border-amber-300 bg-amber-50 text-amber-950" : "border-red-300 bg-red-50 text-red-950",
      )}
    >
      <Icon name="circle-alert" className="mt-0.5 size-5" />
      <div className="grid gap-1">
        {off ? (
          <>
            <p className="font-semibold">
              O envio de e-mails está desativado: configure SMTP_URL (e MAIL_FROM) no servidor.
            </p>
            <p>
              Sem e-mail, ninguém recebe links de confirmação de cadastro, de nova senha ou convites.
              {status.pending > 0 && ` ${plural(status.pending, "mensagem aguarda", "mensagens aguardam")} na fila e ${status.pending === 1 ? "será enviada" : "serão enviadas"} quando o SMTP for configurado.`}
            </p>
          </>
        ) : (
          <p className="font-semibold">
            {plural(status.failed, "e-mail não pôde ser enviado", "e-mails não puderam ser enviados")}.
          </p>
        )}
        {showLink && (
          <p>
            <Link to="/crm/emails" className="font-semibold underline underline-offset-2">
              Ver e-mails
            </Link>
          </p>
        )}
      </div>
    </div>
  );
}
