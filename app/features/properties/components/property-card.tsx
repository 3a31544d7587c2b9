import type { CSSProperties } from "react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { buttonClass } from "~/components/ui/button";
import { mediaSrcSet } from "~/features/media/urls";
import { formatNumber } from "~/lib/format";
import { cn } from "~/lib/utils";
import { PURPOSE_LABELS, STATUS_LABELS, TYPE_LABELS, priceText } from "../labels";
import type { PropertyCardData } from "../types";
import { Icon } from "~/components/ui/icon";
import { FavoriteButton } from "~/features/favorites/components/favorite-button";

type Props = {
  property: PropertyCardData;
  /** The first cards on a page are above the fold: load their cover at once. */
  priority?: boolean;
  className?: string;
  style?: CSSProperties;
};

const STATUS_VARIANT = { vendido: "danger", alugado: "info", em_negociacao: "warning" } as const;

/** The property card of spec §2: cover 4:3, clamped texts, labels, price, facts when present. */
export function PropertyCard({ property, priority = false, className, style }: Props) {
  const href = `/imoveis/${property.id}`;
  const facts = [
    property.area ? { icon: "ruler" as const, text: `${formatNumber(property.area)} m²` } : null,
    property.bedrooms ? { icon: "bed-double" as const, text: `${property.bedrooms} ${property.bedrooms === 1 ? "quarto" : "quartos"}` } : null,
    property.bathrooms ? { icon: "bath" as const, text: `${property.bathrooms} ${property.bathrooms === 1 ? "banheiro" : "banheiros"}` } : null,
    property.parking_spaces ? { icon: "car" as const, text: `${property.parking_spaces} ${property.parking_spaces === 1 ? "vaga" : "vagas"}` } : null,
  ].filter((fact) => fact !== null);

  return (
    <article
      className={cn("render-when-visible relative flex flex-col overflow-hidden rounded-lg border border-border bg-white shadow-sm transition-shadow hover:shadow-md", className)}
      style={style}
    >
      {/* The title below is the accessible link; this one is for pointer users only. */}
      <Link to={href} tabIndex={-1} aria-hidden="true" className="relative block aspect-[4/3] overflow-hidden bg-muted">
        {property.cover ? (
          <img
            src={property.cover}
            srcSet={mediaSrcSet(property.cover, [400, 800])}
            sizes="(min-width: 1280px) 600px, (min-width: 768px) 50vw, 100vw"
            width={800}
            height={600}
            alt=""
            loading={priority ? "eager" : "lazy"}
            fetchPriority={priority ? "high" : undefined}
            decoding="async"
            className="size-full object-cover transition-transform duration-300 hover:scale-105"
          />
        ) : (
          <span className="grid size-full place-items-center text-muted-foreground">
            <Icon name="image-off" className="size-10" />
          </span>
        )}
        <span className="absolute left-3 top-3 flex flex-wrap gap-2">
          {property.featured && (
            <Badge variant="accent">
              <Icon name="star" className="size-3 fill-current" /> Destaque
            </Badge>
          )}
          {property.status !== "disponivel" && (
            <Badge variant={STATUS_VARIANT[property.status]}>{STATUS_LABELS[property.status]}</Badge>
          )}
        </span>
      </Link>
      {/* Beside the photo's link, not inside it: a button in a link is neither. */}
      <FavoriteButton id={property.id} title={property.title} className="absolute right-3 top-3" />

      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex flex-wrap gap-2">
          <Badge variant="secondary">{TYPE_LABELS[property.type]}</Badge>
          <Badge variant="outline">{PURPOSE_LABELS[property.purpose]}</Badge>
          {/* Featured/status badges sit on the photo; repeat them for screen readers. */}
          {property.featured && <span className="sr-only">Destaque</span>}
          {property.status !== "disponivel" && <span className="sr-only">{STATUS_LABELS[property.status]}</span>}
        </div>
        <h3 className="line-clamp-1 text-lg font-semibold">
          <Link to={href} className="hover:text-primary" prefetch="intent">
            {property.title}
          </Link>
        </h3>
        <p className="line-clamp-2 text-sm text-muted-foreground">{property.description}</p>
        <p className="flex items-center gap-1 text-sm text-muted-foreground">
          <Icon name="map-pin" className="size-4 shrink-0" />
          <span className="truncate">
            {property.neighborhood}, {property.city}
          </span>
        </p>
        {facts.length > 0 && (
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-foreground">
            {facts.map((fact) => (
              <li key={fact.text} className="flex items-center gap-1">
                <Icon name={fact.icon} className="size-4 text-muted-foreground" />
                {fact.text}
              </li>
            ))}
          </ul>
        )}
        <div className="mt-auto flex items-end justify-between gap-3 pt-2">
          <p className="text-xl font-bold text-primary">{priceText(property.price, property.purpose)}</p>
          <Link to={href} className={buttonClass("outline", "sm")} aria-label={`Ver Detalhes: ${property.title}`}>
            Ver Detalhes
          </Link>
        </div>
      </div>
    </article>
  );
}
