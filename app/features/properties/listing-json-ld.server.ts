import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { propertiesPublic } from "~/db/schema";
import { type ListingJsonLdDetails, listingJsonLd, serializeJsonLd } from "./structured-data";
import type { PublicPropertyDetail } from "./types";

/**
 * The property page's JSON-LD (decision 022), built in the loader so the page's JavaScript carries
 * neither the builder nor the feature catalogue: the route renders the string it gets. Reads issue
 * 22's fields from the public view, which gives the number, complement and position only when
 * 'Exibir endereço' is on; the JSON-LD never holds more than the page may show.
 */
export async function listingJsonLdText(db: Database, property: PublicPropertyDetail, publicUrl: string): Promise<string> {
  const [details] = await db
    .select({
      floor: propertiesPublic.floor,
      year_built: propertiesPublic.year_built,
      pets_allowed: propertiesPublic.pets_allowed,
      features: propertiesPublic.features,
      address_number: propertiesPublic.address_number,
      address_complement: propertiesPublic.address_complement,
      latitude: propertiesPublic.latitude,
      longitude: propertiesPublic.longitude,
    })
    .from(propertiesPublic)
    .where(eq(propertiesPublic.id, property.id));
  const extra: ListingJsonLdDetails = details
    ? { ...details, latitude: details.latitude === null ? null : Number(details.latitude), longitude: details.longitude === null ? null : Number(details.longitude) }
    : {};
  return serializeJsonLd(listingJsonLd({ ...property, ...extra }, publicUrl));
}
