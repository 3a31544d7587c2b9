import { Link } from "react-router";
import { Icon } from "~/components/ui/icon";
import { PURPOSE_LABELS } from "~/features/properties/labels";
import { formatBRL } from "~/lib/format";
import { propertyPath } from "../contact-links";
import type { LeadPageProperty } from "../lead-page.server";

/** The property the lead asked about: cover, código, price and its public page. */
export function LeadPropertyCard({ property }: { property: LeadPageProperty }) {
  return (
    <div className="flex gap-3">
      {property.cover ? (
        <img src={property.cover} alt="" width={112} height={84} loading="lazy" className="h-21 w-28 shrink-0 rounded-md object-cover" />
      ) : (
        <span className="grid h-21 w-28 shrink-0 place-items-center rounded-md bg-muted text-muted-foreground" aria-hidden="true">
          <Icon name="image-off" className="size-6" />
        </span>
      )}
      <div className="grid min-w-0 content-start gap-1">
        <p className="break-words font-semibold">{property.title}</p>
        <p className="text-sm text-muted-foreground">
          Código <span className="font-mono font-semibold text-foreground">{property.codigo}</span> · {PURPOSE_LABELS[property.purpose]} · {property.neighborhood}
        </p>
        <p className="font-semibold text-primary">{formatBRL(property.price)}</p>
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <a href={propertyPath(property.id)} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline">
            <Icon name="external-link" className="size-4" /> Ver no site
          </a>
          <Link to={`/crm/imoveis?busca=${encodeURIComponent(property.codigo)}`} className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline">
            <Icon name="building-2" className="size-4" /> Ver no CRM
          </Link>
        </p>
      </div>
    </div>
  );
}
