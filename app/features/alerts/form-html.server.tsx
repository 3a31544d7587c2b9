import { renderToStaticMarkup } from "react-dom/server";
import { buttonClass } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { HONEYPOT_FIELD } from "~/features/leads/messages";
import { ALERT_MESSAGES } from "./messages";

/**
 * The inside of the 'Avise-me' form on /imoveis (decision 025), rendered to HTML by the loader.
 * The page's JavaScript budget is nearly used (decision 003): the route only places this markup
 * inside a plain <form method="post" action="/alertas">, which works without JavaScript. The same
 * for every visitor (only the list's own query goes in), so /imoveis stays cacheable.
 */
export function alertFormHtml(query: string): string {
  return renderToStaticMarkup(
    <>
      <h2 className="text-lg font-semibold">{ALERT_MESSAGES.formTitle}</h2>
      <p className="mt-1 text-sm text-muted-foreground">{ALERT_MESSAGES.formHint}</p>
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
    </>,
  );
}
