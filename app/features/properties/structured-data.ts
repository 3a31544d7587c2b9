import { mediaPreviewUrl, mediaUrlForWidth } from "~/features/media/urls";
import { groupedFeatures } from "./features";
import type { PublicPropertyDetail } from "./types";

/**
 * Issue 22's fields the JSON-LD carries (decision 022), as the public view gives them: the number,
 * complement and position are null there unless 'Exibir endereço' is on. All optional, so a
 * listing without them (every old one) gives the same JSON-LD as before.
 */
export type ListingJsonLdDetails = {
  floor?: number | null;
  year_built?: number | null;
  pets_allowed?: boolean | null;
  features?: readonly string[];
  address_number?: string | null;
  address_complement?: string | null;
  latitude?: number | null;
  longitude?: number | null;
};

/** The features' labels in the catalogue's order (unknown keys dropped). */
const featureLabels = (keys: readonly string[] | undefined) => groupedFeatures(keys ?? []).flatMap((group) => group.features.map((feature) => feature.label));

/**
 * schema.org RealEstateListing with an Offer in BRL, for search engines. Built from the
 * listing's own text, so it must be serialised with serializeJsonLd (a title containing
 * "</script>" must not end the script element).
 */
export function listingJsonLd(property: PublicPropertyDetail & ListingJsonLdDetails, publicUrl: string) {
  const url = `${publicUrl}/imoveis/${property.id}`;
  const absolute = (path: string) => new URL(path, publicUrl).toString();
  const available = property.status === "disponivel" || property.status === "em_negociacao";
  const amenities = featureLabels(property.features);
  // The street (with its number and complement) only when the broker chose to show it (issue 13):
  // the view gives them null otherwise, and the neighbourhood stands in.
  const street = property.street_address
    ? [property.street_address, property.address_number, property.address_complement].filter(Boolean).join(", ")
    : property.neighborhood;
  const hasPosition = typeof property.latitude === "number" && typeof property.longitude === "number";
  return {
    "@context": "https://schema.org",
    "@type": "RealEstateListing",
    name: property.title,
    description: property.description,
    url,
    datePosted: property.created_at,
    image: property.images.flatMap((image) => [absolute(mediaUrlForWidth(image, 1600)), absolute(mediaPreviewUrl(image))]).slice(0, 8),
    offers: {
      "@type": "Offer",
      price: property.price || undefined,
      priceCurrency: "BRL",
      businessFunction: property.purpose === "venda" ? "http://purl.org/goodrelations/v1#Sell" : "http://purl.org/goodrelations/v1#LeaseOut",
      availability: available ? "https://schema.org/InStock" : "https://schema.org/SoldOut",
      url,
    },
    about: {
      "@type": property.type === "apartamento" ? "Apartment" : property.type === "casa" ? "House" : "Place",
      ...(property.bedrooms ? { numberOfBedrooms: property.bedrooms } : {}),
      ...(property.bathrooms ? { numberOfBathroomsTotal: property.bathrooms } : {}),
      ...(property.area ? { floorSize: { "@type": "QuantitativeValue", value: property.area, unitCode: "MTK" } } : {}),
      ...(property.floor !== null && property.floor !== undefined ? { floorLevel: property.floor === 0 ? "Térreo" : `${property.floor}º andar` } : {}),
      ...(property.year_built ? { yearBuilt: property.year_built } : {}),
      ...(typeof property.pets_allowed === "boolean" ? { petsAllowed: property.pets_allowed } : {}),
      ...(amenities.length > 0
        ? { amenityFeature: amenities.map((name) => ({ "@type": "LocationFeatureSpecification", name, value: true })) }
        : {}),
      ...(hasPosition ? { geo: { "@type": "GeoCoordinates", latitude: property.latitude, longitude: property.longitude } } : {}),
      address: {
        "@type": "PostalAddress",
        addressLocality: property.city,
        addressRegion: property.state,
        streetAddress: street,
        ...(property.cep ? { postalCode: property.cep } : {}),
        addressCountry: "BR",
      },
    },
  };
}

/** JSON for a <script type="application/ld+json">, with every "<" escaped so no text can close it. */
export function serializeJsonLd(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}
