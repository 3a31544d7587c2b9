import type { PropertyPurpose } from "~/db/values";
import { priceText } from "~/features/properties/labels";

/** The general greeting (home and contact pages), and what an unknown listing's button opens. */
export const SITE_MESSAGE = "Olá! Vim pelo site e gostaria de falar sobre imóveis.";

/** A listing's prefilled message, exactly as its page's button wrote it before the redirect existed. */
export function listingWhatsappMessage(listing: { id: string; title: string; codigo: string; price: number; purpose: PropertyPurpose }, publicUrl: string): string {
  return `Olá! Tenho interesse no imóvel "${listing.title}" (código ${listing.codigo}), ${priceText(listing.price, listing.purpose)}. ${publicUrl}/imoveis/${listing.id}`;
}
