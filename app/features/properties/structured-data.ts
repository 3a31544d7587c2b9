import { mediaPreviewUrl, mediaUrlForWidth } from "~/features/media/urls";
import type { PublicPropertyDetail } from "./types";

/**
 * schema.org RealEstateListing with an Offer in BRL, for search engines. Built from the
 * listing's own text, so it must be serialised with serializeJsonLd (a title containing
 * "</script>" must not end the script element).
 */
export function listingJsonLd(property: PublicPropertyDetail, publicUrl: string) {
  const url = `${publicUrl}/imoveis/${property.id}`;
  const absolute = (path: string) => new URL(path, publicUrl).toString();
  const available = property.status === "disponivel" || property.status === "em_negociacao";
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
      address: {
        "@type": "PostalAddress",
        addressLocality: property.city,
        addressRegion: property.state,
        // The street only when the broker chose to show it (issue 13); otherwise the neighbourhood.
        streetAddress: property.street_address ?? property.neighborhood,
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
