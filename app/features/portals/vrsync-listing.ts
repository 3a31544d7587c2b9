import type { Furnished, PropertyPurpose, PropertyStatus, PropertyType, RentalGuarantee } from "~/db/values";
import { mediaLargeJpegUrl, showableImages } from "~/features/media/urls";
import { vrsyncFeatureNames } from "~/features/properties/features";
import { RENTAL_GUARANTEE_VRSYNC } from "~/features/properties/labels";
import { parseVideoLink } from "~/features/properties/media-links";
import { portalPrice, portalTitle } from "./feed-rules";
import type { XmlWriter } from "./xml-writer";

/**
 * One `<Listing>` of the portals' VRSync feed (issue 13; the fields of issue 22, decision 022).
 * Pure: the feed (vrsync-feed.server.ts) reads the rows and streams the document; this writes one
 * listing. Elements follow the order below (the schema declares sequences; where integrators'
 * examples disagree we keep the existing elements where they were and put the new ones beside
 * their neighbours in the grupozap examples):
 *
 *   Listing: ListingID, Title, TransactionType, PublicationType, DetailViewUrl, VirtualTourLink,
 *            Media, Details, Location, ContactInfo
 *   Details: UsageType, PropertyType, Description, ListPrice | RentalPrice,
 *            PropertyAdministrationFee, Iptu, Warranties, LotArea, LivingArea, Bedrooms, Bathrooms,
 *            Suites, Garage, UnitFloor, Floors, YearBuilt, Features
 *   Location: Country, State, City, Neighborhood, Address, StreetNumber, Complement, PostalCode,
 *             Latitude, Longitude
 *
 * A listing whose new fields are all empty (every listing saved before issue 22) writes exactly
 * what the feed wrote before, with one deliberate change: the street is no longer sent when
 * 'Exibir endereço' is off (issue 22: a hidden address leaks nowhere, the feed included).
 */

export const TRANSACTION_TYPES: Record<PropertyPurpose, "For Sale" | "For Rent"> = { venda: "For Sale", aluguel: "For Rent" };

/** Our four types in VRSync's words; land has a lot area, the others a living area. */
export const PORTAL_PROPERTY_TYPES: Record<
  PropertyType,
  { usage: "Residential" | "Commercial"; propertyType: string; area: "LivingArea" | "LotArea" }
> = {
  casa: { usage: "Residential", propertyType: "Residential / Home", area: "LivingArea" },
  apartamento: { usage: "Residential", propertyType: "Residential / Apartment", area: "LivingArea" },
  terreno: { usage: "Residential", propertyType: "Residential / Land Lot", area: "LotArea" },
  ponto_comercial: { usage: "Commercial", propertyType: "Commercial / Business", area: "LivingArea" },
};

/** VRSync's State carries the name, with the UF as its abbreviation. */
export const STATE_NAMES: Record<string, string> = {
  AC: "Acre", AL: "Alagoas", AP: "Amapá", AM: "Amazonas", BA: "Bahia", CE: "Ceará", DF: "Distrito Federal",
  ES: "Espírito Santo", GO: "Goiás", MA: "Maranhão", MT: "Mato Grosso", MS: "Mato Grosso do Sul",
  MG: "Minas Gerais", PA: "Pará", PB: "Paraíba", PR: "Paraná", PE: "Pernambuco", PI: "Piauí",
  RJ: "Rio de Janeiro", RN: "Rio Grande do Norte", RS: "Rio Grande do Sul", RO: "Rondônia", RR: "Roraima",
  SC: "Santa Catarina", SP: "São Paulo", SE: "Sergipe", TO: "Tocantins",
};

/** Features sent from their own columns, in VRSync's closed list's words (decision 016). */
export const FURNISHED_FEATURE = "Furnished";
export const PETS_FEATURE = "Pets Allowed";

/** What one listing of the feed is made of: allow-listed columns of `properties`. */
export type VrsyncListingRow = {
  id: string;
  codigo: string;
  title: string;
  description: string;
  type: PropertyType;
  purpose: PropertyPurpose;
  status: PropertyStatus;
  price: number | string;
  area: number | string | null;
  bedrooms: number | null;
  bathrooms: number | null;
  parking_spaces: number | null;
  neighborhood: string;
  city: string;
  state: string;
  images: string[];
  street_address: string | null;
  cep: string | null;
  display_address: boolean;
  condo_fee: number | null;
  iptu_yearly: number | null;
  suites: number | null;
  total_area: number | null;
  floor: number | null;
  total_floors: number | null;
  year_built: number | null;
  furnished: Furnished | null;
  pets_allowed: boolean | null;
  rental_guarantees: RentalGuarantee[];
  features: string[];
  address_number: string | null;
  address_complement: string | null;
  latitude: number | null;
  longitude: number | null;
  video_url: string | null;
  tour_url: string | null;
};

export type VrsyncContact = { name: string; email: string; phone: string };
export type VrsyncListingContext = { publicUrl: string; profile: VrsyncContact };

/** Whole units of a positive amount (reais, square metres); null when it rounds to nothing. */
const wholePositive = (value: number | string | null): number | null => {
  if (value === null) return null;
  const rounded = Math.round(Number(value));
  return Number.isFinite(rounded) && rounded > 0 ? rounded : null;
};

/** The YouTube link the portals accept in `<Item medium="video">`; null for none or another host. */
export function portalVideoUrl(videoUrl: string | null): string | null {
  if (!videoUrl) return null;
  const video = parseVideoLink(videoUrl);
  return video?.provider === "youtube" ? video.url : null;
}

/** The `<Feature>` names: the catalogue's (features.ts), then mobiliado and pets from their columns. */
export function listingFeatureNames(row: Pick<VrsyncListingRow, "features" | "furnished" | "pets_allowed">): string[] {
  const names = vrsyncFeatureNames(row.features);
  if (row.furnished === "mobiliado") names.push(FURNISHED_FEATURE);
  if (row.pets_allowed === true) names.push(PETS_FEATURE);
  return [...new Set(names)];
}

export function writeVrsyncListing(xml: XmlWriter, row: VrsyncListingRow, context: VrsyncListingContext) {
  const kind = PORTAL_PROPERTY_TYPES[row.type];
  const { publicUrl, profile } = context;
  const absolute = (path: string) => `${publicUrl}${path}`;
  xml.start("Listing");
  xml.text("ListingID", row.codigo);
  xml.cdata("Title", portalTitle(row.title));
  xml.text("TransactionType", TRANSACTION_TYPES[row.purpose]);
  xml.text("PublicationType", "STANDARD");
  xml.text("DetailViewUrl", absolute(`/imoveis/${row.id}`));
  if (row.tour_url) xml.text("VirtualTourLink", row.tour_url);

  // The cover (the first photo) first, marked primary; JPEG, which the portals require. The
  // video after the photos: one, and only from YouTube (the portals play no other host).
  xml.start("Media");
  showableImages(row.images).forEach((url, index) => {
    xml.text("Item", absolute(mediaLargeJpegUrl(url)), { medium: "image", primary: index === 0 ? "true" : undefined });
  });
  const video = portalVideoUrl(row.video_url);
  if (video) xml.text("Item", video, { medium: "video" });
  xml.end();

  xml.start("Details");
  xml.text("UsageType", kind.usage);
  xml.text("PropertyType", kind.propertyType);
  xml.cdata("Description", row.description.trim());
  const price = portalPrice(row.price);
  if (row.purpose === "venda") xml.text("ListPrice", price, { currency: "BRL" });
  else xml.text("RentalPrice", price, { currency: "BRL", period: "Monthly" });
  // Condomínio per month; IPTU per year as the carnê states it (decision 016), in whole reais.
  const condoFee = wholePositive(row.condo_fee);
  if (condoFee) xml.text("PropertyAdministrationFee", condoFee, { currency: "BRL" });
  const iptu = wholePositive(row.iptu_yearly);
  if (iptu) xml.text("Iptu", iptu, { currency: "BRL", period: "Yearly" });
  if (row.purpose === "aluguel" && row.rental_guarantees.length > 0) {
    xml.start("Warranties");
    for (const guarantee of row.rental_guarantees) xml.text("Warranty", RENTAL_GUARANTEE_VRSYNC[guarantee]);
    xml.end();
  }
  // `area` is the área útil (LivingArea), a plot's area for land (LotArea); `total_area` is the
  // área total, sent as LotArea except for land, whose lot area `area` already is (decision 016).
  // Whole square metres; an area that rounds to nothing is left out, like the counts below
  // (null or zero means "not given", spec §5).
  const area = wholePositive(row.area);
  const totalArea = kind.area === "LotArea" ? null : wholePositive(row.total_area);
  if (kind.area === "LotArea" && area) xml.text("LotArea", area, { unit: "square metres" });
  if (totalArea) xml.text("LotArea", totalArea, { unit: "square metres" });
  if (kind.area === "LivingArea" && area) xml.text("LivingArea", area, { unit: "square metres" });
  if (row.bedrooms) xml.text("Bedrooms", row.bedrooms);
  if (row.bathrooms) xml.text("Bathrooms", row.bathrooms);
  if (row.suites) xml.text("Suites", row.suites);
  if (row.parking_spaces) xml.text("Garage", row.parking_spaces, { type: "Parking Space" });
  // Andar 0 is the térreo, a real answer (decision 016).
  if (row.floor !== null) xml.text("UnitFloor", row.floor);
  if (row.total_floors) xml.text("Floors", row.total_floors);
  if (row.year_built) xml.text("YearBuilt", row.year_built);
  const features = listingFeatureNames(row);
  if (features.length > 0) {
    xml.start("Features");
    for (const name of features) xml.text("Feature", name);
    xml.end();
  }
  xml.end();

  // "Neighborhood" asks the portals to show no more than the neighbourhood. The street, number,
  // complement and map position go only with 'Exibir endereço'; the CEP always (it places the
  // listing in its area, as before).
  const shown = row.display_address;
  xml.start("Location", { displayAddress: shown ? "All" : "Neighborhood" });
  xml.text("Country", "Brasil", { abbreviation: "BR" });
  xml.text("State", STATE_NAMES[row.state] ?? row.state, { abbreviation: row.state });
  xml.text("City", row.city);
  xml.text("Neighborhood", row.neighborhood);
  if (shown && row.street_address) xml.text("Address", row.street_address);
  if (shown && row.address_number) xml.text("StreetNumber", row.address_number);
  if (shown && row.address_complement) xml.text("Complement", row.address_complement);
  if (row.cep) xml.text("PostalCode", row.cep);
  if (shown && row.latitude !== null && row.longitude !== null) {
    xml.text("Latitude", row.latitude);
    xml.text("Longitude", row.longitude);
  }
  xml.end();

  xml.start("ContactInfo");
  xml.text("Name", profile.name);
  xml.text("Email", profile.email);
  xml.text("Website", publicUrl);
  xml.text("Telephone", profile.phone);
  xml.end();
  xml.end();
}
