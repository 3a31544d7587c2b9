import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { properties, propertiesPublic } from "~/db/schema";
import type { PropertyPurpose, PropertyStatus, PropertyType, RentalGuarantee } from "~/db/values";
import type { PublicListingDetails } from "~/features/properties/types";
import { showableImages } from "~/features/media/urls";
import { isUuid } from "~/lib/ids";

/**
 * What the ficha (the listing's PDF sheet, issue 22 item 6) shows, read in one query.
 *
 * - `public`: through the properties_public view, exactly what the property page may show: the
 *   street, number, complement and CEP are null there unless the broker chose 'Exibir endereço'.
 * - `crm`: from the table (staff only; the route checks the role first): any listing, with its
 *   full address. Never the partner broker's name: a ficha is handed to clients.
 */
export type FichaScope = "public" | "crm";

export type FichaListing = {
  id: string;
  codigo: string;
  title: string;
  description: string;
  type: PropertyType;
  purpose: PropertyPurpose;
  status: PropertyStatus;
  price: number;
  area: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  parking_spaces: number | null;
  neighborhood: string;
  city: string;
  state: string;
  street_address: string | null;
  address_number: string | null;
  address_complement: string | null;
  cep: string | null;
  images: string[];
  updated_at: string;
} & PublicListingDetails;

const columnsOf = (source: typeof properties | typeof propertiesPublic) => ({
  id: source.id,
  codigo: source.codigo,
  title: source.title,
  description: source.description,
  type: source.type,
  purpose: source.purpose,
  status: source.status,
  price: source.price,
  area: source.area,
  total_area: source.total_area,
  bedrooms: source.bedrooms,
  suites: source.suites,
  bathrooms: source.bathrooms,
  parking_spaces: source.parking_spaces,
  floor: source.floor,
  total_floors: source.total_floors,
  year_built: source.year_built,
  furnished: source.furnished,
  pets_allowed: source.pets_allowed,
  accepts_financing: source.accepts_financing,
  accepts_fgts: source.accepts_fgts,
  accepts_exchange: source.accepts_exchange,
  rental_guarantees: source.rental_guarantees,
  features: source.features,
  condo_fee: source.condo_fee,
  iptu_yearly: source.iptu_yearly,
  neighborhood: source.neighborhood,
  city: source.city,
  state: source.state,
  street_address: source.street_address,
  address_number: source.address_number,
  address_complement: source.address_complement,
  cep: source.cep,
  images: source.images,
  updated_at: source.updated_at,
});

const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** The listing for its ficha, or null (unknown or malformed id, or not public for `public`). */
export async function loadFichaListing(db: Database, id: string, scope: FichaScope): Promise<FichaListing | null> {
  if (!isUuid(id)) return null;
  const rows =
    scope === "public"
      ? await db.select(columnsOf(propertiesPublic)).from(propertiesPublic).where(eq(propertiesPublic.id, id))
      : await db.select(columnsOf(properties)).from(properties).where(eq(properties.id, id));
  const row = rows[0];
  if (!row) return null;
  return {
    ...row,
    price: Number(row.price),
    area: numberOrNull(row.area),
    total_area: numberOrNull(row.total_area),
    condo_fee: numberOrNull(row.condo_fee),
    iptu_yearly: numberOrNull(row.iptu_yearly),
    rental_guarantees: (row.rental_guarantees ?? []) as RentalGuarantee[],
    features: row.features ?? [],
    images: showableImages(row.images ?? []),
    updated_at: new Date(row.updated_at).toISOString(),
  } as FichaListing;
}
