import { buttonClass } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { HONEYPOT_FIELD } from "~/features/leads/messages";

/**
 * 'Me avise quando surgir um imóvel assim' (decision 025): a plain form posted to /alertas, so it
 * works without JavaScript and adds none; the same for every visitor, so /imoveis stays cacheable.
 */
export function AlertForm({ query, title, hint }: { query: string; title: string; hint: string }) {
  return (
    <form method="post" action="/alertas" className="mt-8 rounded-lg border bg-card p-4 sm:p-5">
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="mt-1 text-sm text-muted-foreground">{hint}</p>
      <input type="hidden" name="q" value={query} />
      <div className="hidden" aria-hidden="true">
        <input name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" />
      </div>
      <div className="mt-3 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <label className="grid gap-1 text-sm font-medium">
          E-mail
          <Input type="email" name="email" required maxLength={255} autoComplete="email" />
        </label>
        <label className="grid gap-1 text-sm font-medium">
          WhatsApp (opcional)
          <Input type="tel" name="phone" maxLength={20} autoComplete="tel" placeholder="(84) 99999-9999" />
        </label>
        <button type="submit" className={buttonClass()}>
          Criar alerta
        </button>
      </div>
    </form>
  );
}
