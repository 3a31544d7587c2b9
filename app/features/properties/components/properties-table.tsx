import { useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Icon } from "~/components/ui/icon";
import { STICKY_END, Td, Th } from "~/components/ui/table";
import { RecordList } from "~/features/crm/components/record-list";
import { RowActions } from "~/features/crm/components/row-actions";
import { mediaUrlForWidth, showableImages } from "~/features/media/urls";
import { portalExclusionReasons } from "~/features/portals/feed-rules";
import { cn } from "~/lib/utils";
import { completenessText, listingCompleteness } from "../completeness";
import { portalIssues, portalIssuesSummary } from "../portal-checks";
import type { CrmProperty } from "../crm.server";
import { priceText, PURPOSE_LABELS, STATUS_LABELS, TYPE_LABELS } from "../labels";
import { completenessTone } from "./property-form/completeness-meter";
import { MatchingLeadsLink } from "~/features/matching/components/matching-leads-link";
import { NegotiationsLink } from "~/features/deals/components/negotiations-link";

const STATUS_VARIANT = { disponivel: "success", vendido: "danger", alugado: "info", em_negociacao: "warning" } as const;

/** The star of the 'destaque' column: toggles at once (optimistic), saved on the server. */
function FeaturedToggle({ property }: { property: CrmProperty }) {
  const fetcher = useFetcher({ key: `featured-${property.id}` });
  const pending = fetcher.json as { featured?: boolean } | undefined;
  const featured = pending?.featured ?? property.featured;
  return (
    <button
      type="button"
      aria-pressed={featured}
      onClick={() =>
        fetcher.submit({ intent: "featured", id: property.id, featured: !featured }, { method: "post", action: "/crm/imoveis", encType: "application/json" })
      }
      className="grid size-10 place-items-center rounded-md hover:bg-muted"
    >
      <Icon
        name="star"
        className={cn("size-5", featured ? "fill-amber-400 text-amber-500" : "text-muted-foreground")}
        label={featured ? `Remover destaque de ${property.codigo}` : `Destacar ${property.codigo}`}
      />
    </button>
  );
}

/** Why a listing is not in the portals' feed (issue 13), in a word or two each; nothing when it is. */
function PortalNote({ property }: { property: CrmProperty }) {
  const reasons = portalExclusionReasons(property);
  if (reasons.length === 0) return null;
  return <span className="mt-1 block text-xs text-amber-800">Fora dos portais: {reasons.join(", ")}</span>;
}

/** How many things the portals would refuse or score down (decision 022); the list on hover. */
function PortalIssuesBadge({ property }: { property: CrmProperty }) {
  const issues = portalIssues(property);
  const summary = portalIssuesSummary(issues);
  if (!summary) return null;
  return (
    <Badge
      variant={summary.rejected ? "danger" : "warning"}
      className="max-w-28 whitespace-normal"
      title={issues.map((issue) => `${issue.severity === "rejeita" ? "Rejeita" : "Reduz nota"}: ${issue.message}`).join("\n")}
      data-testid="portal-issues-badge"
    >
      <Icon name="circle-alert" className="size-3 shrink-0" />
      <span className="sr-only">Portais: </span>
      {summary.text}
    </Badge>
  );
}

/** The cover (first photo) at the smallest stored width, or a placeholder saying there is none. */
function CoverThumbnail({ property, className }: { property: CrmProperty; className?: string }) {
  const [cover] = showableImages(property.images);
  return (
    <div className={cn("grid shrink-0 place-items-center overflow-hidden rounded bg-muted", className)}>
      {cover ? (
        <img src={mediaUrlForWidth(cover, 200)} alt={`Capa de ${property.title}`} width={200} height={150} loading="lazy" decoding="async" className="size-full object-cover" />
      ) : (
        <>
          <Icon name="image-off" className="size-5 text-muted-foreground" />
          <span className="sr-only">Sem foto</span>
        </>
      )}
    </div>
  );
}

/** How complete the listing is for the portals (issue 22): the same score as the form's meter. */
function CompletenessNote({ property, compact }: { property: CrmProperty; compact?: boolean }) {
  const completeness = listingCompleteness(property);
  const text = completenessText(completeness, compact ? Number.POSITIVE_INFINITY : 2);
  return (
    <div className="grid gap-1" title={compact ? text : undefined}>
      {compact && (
        <span className="text-xs font-semibold tabular-nums text-muted-foreground" aria-hidden="true">
          Anúncio {completeness.percent}%
        </span>
      )}
      <div className={cn("h-1.5 overflow-hidden rounded-full bg-muted", compact ? "w-20" : "w-full")} aria-hidden="true">
        <div className={cn("h-full rounded-full", completenessTone(completeness.percent))} style={{ width: `${completeness.percent}%` }} />
      </div>
      <span className={compact ? "sr-only" : "text-xs text-muted-foreground"}>{text}</span>
    </div>
  );
}

/** Spec §2 "CRM properties": a table on wide screens, cards on a phone. */
export function PropertiesTable({
  properties,
  emptyText = "Nenhum imóvel cadastrado",
  onEdit,
  onDelete,
}: {
  properties: CrmProperty[];
  emptyText?: string;
  onEdit: (property: CrmProperty) => void;
  onDelete: (property: CrmProperty) => void;
}) {
  return (
    <RecordList
      items={properties}
      emptyText={emptyText}
      cardClassName="grid gap-3"
      head={
        <>
          <Th>
            <span className="sr-only">Capa</span>
          </Th>
          <Th>Código</Th>
          <Th>Título</Th>
          <Th>
            <span className="whitespace-normal">Tipo e finalidade</span>
          </Th>
          <Th>Bairro</Th>
          <Th className="text-right">Preço</Th>
          <Th>
            <span className="whitespace-normal">Status e anúncio</span>
          </Th>
          <Th>Destaque</Th>
          <Th className={STICKY_END}>Ações</Th>
        </>
      }
      row={(property) => (
        <>
          <Td className="w-14 py-1.5 pr-0">
            <CoverThumbnail property={property} className="h-[42px] w-14" />
          </Td>
          {/* A code is up to 50 characters: it wraps (at its dashes first) rather than widen the table. */}
          <Td className="min-w-[5.75rem] max-w-32 font-mono text-xs font-semibold [overflow-wrap:anywhere]">{property.codigo}</Td>
          <Td className="min-w-36">
            <span className="line-clamp-2">{property.title}</span>
            <PortalNote property={property} />
          </Td>
          <Td>
            {TYPE_LABELS[property.type]}
            <span className="block text-xs text-muted-foreground">{PURPOSE_LABELS[property.purpose]}</span>
          </Td>
          <Td>{property.neighborhood}</Td>
          <Td className="whitespace-nowrap text-right">{priceText(property.price, property.purpose)}</Td>
          <Td>
            <div className="grid justify-items-start gap-1.5">
              <Badge variant={STATUS_VARIANT[property.status]}>{STATUS_LABELS[property.status]}</Badge>
              <CompletenessNote property={property} compact />
              <PortalIssuesBadge property={property} />
            </div>
          </Td>
          <Td>
            <FeaturedToggle property={property} />
          </Td>
          <Td className={STICKY_END}>
            <RowActions
              subject={property.codigo}
              onEdit={() => onEdit(property)}
              onDelete={() => onDelete(property)}
              before={
                <>
                  <FichaLink property={property} compact />
                  <MatchingLeadsLink id={property.id} codigo={property.codigo} compact />
                  <NegotiationsLink id={property.id} codigo={property.codigo} compact />
                </>
              }
              compact
            />
          </Td>
        </>
      )}
      card={(property) => (
        <>
          <div className="flex items-start justify-between gap-2">
            <CoverThumbnail property={property} className="h-16 w-20" />
            <div className="min-w-0 flex-1">
              <p className="font-mono text-xs font-semibold text-muted-foreground">{property.codigo}</p>
              <p className="font-semibold">{property.title}</p>
              <p className="text-sm text-muted-foreground">
                {TYPE_LABELS[property.type]} · {PURPOSE_LABELS[property.purpose]} · {property.neighborhood}
              </p>
              <PortalNote property={property} />
            </div>
            <FeaturedToggle property={property} />
          </div>
          <CompletenessNote property={property} />
          <div className="flex flex-wrap items-center justify-between gap-2">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-bold text-primary">{priceText(property.price, property.purpose)}</span>
              <Badge variant={STATUS_VARIANT[property.status]}>{STATUS_LABELS[property.status]}</Badge>
              <PortalIssuesBadge property={property} />
            </div>
            <RowActions
              subject={property.codigo}
              onEdit={() => onEdit(property)}
              onDelete={() => onDelete(property)}
              before={
                <>
                  <FichaLink property={property} />
                  <MatchingLeadsLink id={property.id} codigo={property.codigo} />
                  <NegotiationsLink id={property.id} codigo={property.codigo} />
                </>
              }
            />
          </div>
        </>
      )}
    />
  );
}

/** The listing's ficha (A4 PDF, issue 22): a plain download, with the full address (staff). */
function FichaLink({ property, compact = false }: { property: CrmProperty; compact?: boolean }) {
  return (
    <a href={`/crm/imoveis/${property.id}/ficha.pdf`} download className={cn("grid place-items-center rounded-md hover:bg-muted", compact ? "size-8" : "size-10")}>
      <Icon name="download" className="size-4" label={`Baixar ficha (PDF) de ${property.codigo}`} />
    </a>
  );
}
