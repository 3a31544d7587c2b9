/**
 * The broker's public profile as pages see it: the settings saved in /crm/configuracoes over the
 * first-run defaults from the environment (features/settings loadBrokerProfile).
 */
export type BrokerProfile = {
  name: string;
  /** The brand shown in the navbar, titles and link previews. */
  siteName: string;
  creci: string;
  /** Phone as displayed, e.g. "(84) 99999-9999". */
  phone: string;
  /** WhatsApp number with country code, digits only, e.g. "5584999999999". */
  whatsapp: string;
  email: string;
  /** Office address as displayed; empty when the broker shows none. */
  address: string;
  city: string;
  serviceArea: string;
  /** Empty: no Instagram link is shown. */
  instagramUrl: string;
  /** Empty: no Facebook link is shown. */
  facebookUrl: string;
  bio: string;
  portraitUrl: string;
  studioName: string;
  studioUrl: string;
};

/** A wa.me chat link, optionally with a prefilled message (encoded). */
export function whatsappLink(number: string, message?: string): string {
  const base = `https://wa.me/${number}`;
  return message ? `${base}?text=${encodeURIComponent(message)}` : base;
}

/** "tel:" link from a displayed phone number. */
export function telLink(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  return `tel:${digits.length <= 11 ? `+55${digits}` : `+${digits}`}`;
}
