import type { PropertyPurpose, PropertyStatus, PropertyType } from "~/db/values";

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
};
