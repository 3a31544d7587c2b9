import { Link } from "react-router";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { formatBRL, formatDateTime } from "~/lib/format";
import type { NewMatch } from "../new-matches.server";

/**
 * Dashboard 'Novos matches' (issue 23): open leads that a listing published or made cheaper in the
 * last days now fits, not sent yet (match.server.ts newMatches).
 */
export function NewMatches({ matches, days }: { matches: { total: number; capped: boolean; items: NewMatch[] }; days: number }) {
  return (
    <Card className="p-4 sm:p-5" role="region" aria-labelledby="novos-matches">
      <h2 id="novos-matches" className="mb-1 flex items-center gap-2 text-base font-semibold">
        <Icon name="target" className="size-4 text-primary" /> Novos matches
        <span className="text-sm font-normal text-muted-foreground" data-testid="new-matches-total">
          ({matches.total}
          {matches.capped ? "+" : ""})
        </span>
      </h2>
      <p className="mb-3 text-sm text-muted-foreground">Leads que um imóvel publicado ou com preço reduzido nos últimos {days} dias passou a atender.</p>
      {matches.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">Nenhum match novo.</p>
      ) : (
        <ul className="grid gap-3" data-testid="new-matches">
          {matches.items.map((item) => (
            <li key={`${item.leadId}-${item.propertyId}`} className="grid gap-0.5 text-sm">
              <p className="break-words">
                <Link to={`/crm/leads/${item.leadId}`} className="font-semibold text-primary underline-offset-4 hover:underline">
                  {item.full_name}
                </Link>{" "}
                ← {item.codigo} — {item.title}
              </p>
              <p className="text-muted-foreground">
                {item.why === "price" ? "Preço reduzido" : "Publicado"} em {formatDateTime(item.at)} · {formatBRL(item.price)} ·{" "}
                <Link to={`/crm/imoveis/${item.propertyId}/leads`} className="text-primary underline-offset-4 hover:underline">
                  ver leads do imóvel
                </Link>
              </p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
