import type { Furnished, PropertyPurpose, PropertyStatus, PropertyType, RentalGuarantee } from "~/db/values";

/** What a property card shows: allow-listed, the cover only (not every photo URL). */
export type PropertyCardData = {
  id: string;
  codigo: string;
  title: string;
  description: string;
  type: PropertyType;
  purpose: PropertyPurpose;
  status: PropertyStatus;
  featured: boolean;
  price: number;
  area: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  parking_spaces: number | null;
  neighborhood: string;
  city: string;
  cover: string | null;
};

/** What the public property page shows: the card's fields plus every photo and the state. */
export type PublicPropertyDetail = Omit<PropertyCardData, "cover"> & {
  state: string;
  images: string[];
  created_at: string;
  updated_at: string;
  /** Street address and CEP (issue 13): null unless the broker chose 'Exibir endereço'. */
  street_address: string | null;
  cep: string | null;
} & PublicListingDetails;

/** Issue 22's fields on the public page (decision 017): null where the broker said nothing. */
export type PublicListingDetails = {
  condo_fee: number | null;
  iptu_yearly: number | null;
  suites: number | null;
  total_area: number | null;
  floor: number | null;
  total_floors: number | null;
  year_built: number | null;
  furnished: Furnished | null;
  pets_allowed: boolean | null;
  accepts_financing: boolean | null;
  accepts_fgts: boolean | null;
  accepts_exchange: boolean | null;
  rental_guarantees: RentalGuarantee[];
  features: string[];
};

/** A listing that said nothing of issue 22's fields (an old one): fixtures start from it. */
export const EMPTY_LISTING_DETAILS: PublicListingDetails = {
  condo_fee: null,
  iptu_yearly: null,
  suites: null,
  total_area: null,
  floor: null,
  total_floors: null,
  year_built: null,
  furnished: null,
  pets_allowed: null,
  accepts_financing: null,
  accepts_fgts: null,
  accepts_exchange: null,
  rental_guarantees: [],
  features: [],
};
