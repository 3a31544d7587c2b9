import { data, Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { buttonClass } from "~/components/ui/button";
import { Icon, type IconName } from "~/components/ui/icon";
import { mediaPreviewUrl } from "~/features/media/urls";
import { BookingButton } from "~/features/leads/components/booking-button";
import { FinancingLauncher } from "~/features/financing/components/financing-launcher";
import { FavoriteButton } from "~/features/favorites/components/favorite-button";
import { Gallery } from "~/features/properties/components/gallery";
import { ListingFacts } from "~/features/properties/components/listing-facts";
import { ListingFeatures } from "~/features/properties/components/listing-features";
import { ListingValues } from "~/features/properties/components/listing-values";
import { listingPresentation } from "~/features/properties/listing-facts";
import { ListingEmbeds } from "~/features/properties/components/listing-embeds";
import { getListingEmbeds } from "~/features/properties/embeds.server";
import { PropertyCard } from "~/features/properties/components/property-card";
import { ShareProperty } from "~/features/properties/components/share-property";
import { PURPOSE_LABELS, STATUS_LABELS, TYPE_LABELS, priceText } from "~/features/properties/labels";
import { getPublicProperty, listSimilarProperties } from "~/features/properties/public-queries.server";
import { listingJsonLdText } from "~/features/properties/listing-json-ld.server";
import { getEnv } from "~/lib/env.server";
import { neighbourhoodHrefOf } from "~/features/neighbourhoods/slug";
import { errorFields, logger } from "~/lib/logger.server";
import { telLink } from "~/features/site/broker-profile";
import { WHATSAPP_REL, whatsappHref } from "~/features/whatsapp/links";
import { rootDataFromMatches } from "~/features/site/root-data";
import { formatNumber } from "~/lib/format";
import { useNonce } from "~/lib/nonce";
import { getDb } from "~/runtime.server";
import { pageMeta } from "~/lib/seo";
import { useRootData } from "~/root";
import type { Route } from "./+types/property";
import { useLiveUpdates } from "~/features/live/use-live-updates";
import { ListingMap } from "~/features/properties/map/components/listing-map";
import { getListingMap } from "~/features/properties/map/map-data.server";

export async function loader({ params }: Route.LoaderArgs) {
  // Unknown or malformed ids are a 404 page, never a server error.
  const db = await getDb();
  const property = await getPublicProperty(db, params.id);
  if (!property) return data({ property: null, similar: [], jsonLd: null, listing: null, neighbourhoodHref: null, map: null, embeds: [] }, { status: 404 });
  // 'Imóveis semelhantes' is a bonus: if it fails, the page still shows the listing.
  const similar = await listSimilarProperties(db, property).catch((error: unknown) => {
    logger("imovel").error({ ...errorFields(error) }, "similar properties could not be loaded");
    return [];
  });
  // Built here, not in the component: the page's JavaScript carries neither builder nor catalogue.
  const jsonLd = await listingJsonLdText(db, property, getEnv().publicUrl);
  return {
    property,
    similar,
    jsonLd,
    // Issue 22's fields as ready strings (decision 017): the page's JavaScript formats nothing.
    listing: listingPresentation(property),
    // The neighbourhood's page (decision 021), while this listing is on the market there.
    neighbourhoodHref: neighbourhoodHrefOf(property),
    // The map (issue 22, item 4): the exact point only when the address is shown, else an approximate one.
    map: await getListingMap(db, property.id, property.neighborhood),
    // The video and tour as click-to-load players (decision 019).
    embeds: await getListingEmbeds(db, property.id),
  };
}

/**
 * A booking or a message sent from this page's dialogs changes nothing the page shows: reading the
 * listing again after it is work for nothing, and while the database is down that read is the
 * request the overload guard turns away — the visitor then met "Servidor ocupado" instead of the
 * dialog's own 'Tente novamente' with the fields kept.
 */
export function shouldRevalidate({ formAction, defaultShouldRevalidate }: { formAction?: string; defaultShouldRevalidate: boolean }) {
  if (formAction === "/agendar-visita" || formAction === "/contato") return false;
  return defaultShouldRevalidate;
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  const { broker, publicUrl } = rootDataFromMatches(matches);
  const property = loaderData?.property;
  if (!property) return [{ title: `Imóvel não encontrado | ${broker.siteName}` }, { name: "robots", content: "noindex" }];
  const cover = property.images[0];
  return pageMeta({
    title: property.title,
    description: `${priceText(property.price, property.purpose)} · ${TYPE_LABELS[property.type]} para ${property.purpose === "venda" ? "venda" : "alugar"} em ${property.neighborhood}, ${property.city}/${property.state}. ${property.description}`.slice(0, 300),
    url: `${publicUrl}/imoveis/${property.id}`,
    siteName: broker.siteName,
    image: cover ? new URL(mediaPreviewUrl(cover), publicUrl).toString() : `${publicUrl}/og-default.jpg`,
    imageAlt: property.title,
    type: "article",
  });
};

export default function PropertyPage({ loaderData }: Route.ComponentProps) {
  useLiveUpdates("properties");
  const { broker, publicUrl } = useRootData();
  const nonce = useNonce();
  const { property, similar, jsonLd, listing, neighbourhoodHref, map, embeds } = loaderData;

  if (!property) {
    return (
      <section className="container-page flex min-h-[50vh] flex-col items-center justify-center gap-4 py-16 text-center">
        <Icon name="search" className="size-12 text-muted-foreground" />
        <h1 className="text-2xl font-bold">Imóvel não encontrado</h1>
        <p className="text-muted-foreground">Ele pode ter sido vendido, alugado ou removido.</p>
        <Link to="/imoveis" className={buttonClass("default", "lg")}>
          Ver imóveis disponíveis
        </Link>
      </section>
    );
  }

  const url = `${publicUrl}/imoveis/${property.id}`;
  const price = priceText(property.price, property.purpose);
  type Fact = { icon: IconName; label: string; value: string };
  const facts = [
    property.bedrooms ? { icon: "bed-double", label: "Quartos", value: String(property.bedrooms) } : null,
    property.bathrooms ? { icon: "bath", label: "Banheiros", value: String(property.bathrooms) } : null,
    property.area ? { icon: "ruler", label: "Área útil", value: `${formatNumber(property.area)} m²` } : null,
    property.parking_spaces ? { icon: "car", label: "Vagas", value: String(property.parking_spaces) } : null,
  ].filter((fact): fact is Fact => fact !== null);

  return (
    <article className="container-page py-6 sm:py-10">
      <script
        type="application/ld+json"
        nonce={nonce}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: jsonLd ?? "" }}
      />
      <Link to="/imoveis" className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline">
        <Icon name="arrow-left" /> Voltar para imóveis
      </Link>

      {/* Phone: photos and title, then price and the two actions, then the details. Wide
          screens: the price card sits beside everything, following the reader down. */}
      <div className="mt-4 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-x-8">
        <div className="grid min-w-0 gap-6 lg:col-start-1">
          <Gallery images={property.images} title={property.title} />

          <div>
            <div className="flex flex-wrap gap-2">
              <Badge variant="outline">Código {property.codigo}</Badge>
              <Badge variant="default">{PURPOSE_LABELS[property.purpose]}</Badge>
              <Badge variant="secondary">{TYPE_LABELS[property.type]}</Badge>
              {property.featured && (
                <Badge variant="accent">
                  <Icon name="star" className="size-3 fill-current" /> Destaque
                </Badge>
              )}
              {property.status !== "disponivel" && <Badge variant="warning">{STATUS_LABELS[property.status]}</Badge>}
            </div>
            <h1 className="mt-3 font-display text-3xl font-bold leading-tight sm:text-4xl">{property.title}</h1>
            <p className="mt-2 flex items-center gap-1 text-muted-foreground">
              <Icon name="map-pin" className="size-5" />
              {neighbourhoodHref ? <Link to={neighbourhoodHref} className="underline underline-offset-4">{property.neighborhood}</Link> : property.neighborhood}, {property.city}/{property.state}
            </p>
            {/* Only when the broker chose 'Exibir endereço' (the public view holds nothing otherwise). */}
            {(property.street_address || property.cep) && (
              <p className="mt-1 pl-6 text-sm text-muted-foreground">
                {[property.street_address, property.cep && `CEP ${property.cep}`].filter(Boolean).join(" · ")}
              </p>
            )}
            <div className="mt-4 flex flex-wrap gap-2">
              <FavoriteButton id={property.id} title={property.title} withText />
              <ShareProperty title={property.title} text={`${property.title} – ${price}`} url={url} />
              {/* The ficha (A4 PDF, issue 22): a plain download, no script. */}
              <a href={`/imoveis/${property.id}/ficha.pdf`} download className={buttonClass("outline")}>
                <Icon name="download" /> Baixar ficha (PDF)
              </a>
            </div>
          </div>
        </div>

        <aside className="grid content-start gap-4 lg:sticky lg:top-20 lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <div className="rounded-lg border border-border bg-white p-5 shadow-sm">
            <p className="text-sm text-muted-foreground">{property.purpose === "venda" ? "Valor do Imóvel" : "Valor do Aluguel"}</p>
            <p className="mt-1 text-3xl font-bold text-primary">{price}</p>
            <div className="mt-5 grid gap-3">
              <BookingButton property={{ id: property.id, title: property.title }} />
              <a href={whatsappHref("imovel", { listing: property.codigo })} target="_blank" rel={WHATSAPP_REL} className={buttonClass("whatsapp", "lg")}>
                <Icon name="whatsapp" className="size-5" /> Falar pelo WhatsApp
              </a>
            </div>
          </div>

          <div className="rounded-lg border border-border bg-white p-5 shadow-sm">
            <h2 className="text-sm font-semibold uppercase tracking-wide text-muted-foreground">Corretor responsável</h2>
            <p className="mt-2 text-lg font-semibold">{broker.name}</p>
            <p className="text-sm text-muted-foreground">{broker.creci}</p>
            <a href={telLink(broker.phone)} className="mt-2 inline-flex items-center gap-2 font-medium text-primary underline-offset-4 hover:underline">
              <Icon name="phone" /> {broker.phone}
            </a>
          </div>
        </aside>

        <div className="grid min-w-0 content-start gap-6 lg:col-start-1">
          {facts.length > 0 && (
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              {facts.map((fact) => (
                <div key={fact.label} className="rounded-lg border border-border bg-white p-4">
                  <dt className="flex items-center gap-2 text-sm text-muted-foreground">
                    <Icon name={fact.icon} className="size-5 text-primary" />
                    {fact.label}
                  </dt>
                  <dd className="mt-1 text-lg font-semibold">{fact.value}</dd>
                </div>
              ))}
            </dl>
          )}

          {listing && <ListingValues values={listing.values} />}
          {listing && <ListingFacts facts={listing.facts} badges={listing.badges} />}

          <section aria-labelledby="description-heading">
            <h2 id="description-heading" className="text-xl font-semibold">
              Descrição
            </h2>
            <p className="mt-2 whitespace-pre-line leading-relaxed text-foreground/90">{property.description}</p>
          </section>

          {listing && <ListingFeatures groups={listing.features} />}
          <ListingEmbeds embeds={embeds} />

          {map && <ListingMap key={`${map.latitude},${map.longitude}`} map={map} />}

          {property.purpose === "venda" && <FinancingLauncher price={property.price} />}
        </div>

      </div>

      {similar.length > 0 && (
        <section aria-labelledby="similar-heading" className="mt-12">
          <h2 id="similar-heading" className="font-display text-2xl font-bold">
            Imóveis semelhantes
          </h2>
          {/* The cards alone, not the list's grid: below the fold, no entrance to stagger, one file fewer to load. */}
          <ul className="mt-4 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
            {similar.map((card) => (
              <li key={card.id}>
                <PropertyCard property={card} className="h-full" />
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
