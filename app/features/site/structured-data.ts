import { mediaUrlForWidth } from "~/features/media/urls";
import { type BrokerProfile, telLink } from "./broker-profile";

/**
 * schema.org RealEstateAgent for the about page, from the profile saved in the settings. Text the
 * broker typed goes in: serialise it with serializeJsonLd (features/properties/structured-data).
 */
export function brokerJsonLd(broker: BrokerProfile, publicUrl: string) {
  const absolute = (path: string) => new URL(path, publicUrl).toString();
  const sameAs = [broker.instagramUrl, broker.facebookUrl].filter(Boolean);
  return {
    "@context": "https://schema.org",
    "@type": "RealEstateAgent",
    name: broker.siteName,
    employee: { "@type": "Person", name: broker.name, jobTitle: `Corretor de imóveis (${broker.creci})` },
    description: broker.bio,
    url: absolute("/sobre"),
    image: absolute(mediaUrlForWidth(broker.portraitUrl, 800)),
    telephone: telLink(broker.phone).slice("tel:".length),
    email: broker.email,
    areaServed: broker.serviceArea,
    address: {
      "@type": "PostalAddress",
      ...(broker.address ? { streetAddress: broker.address } : {}),
      addressLocality: broker.city,
      addressCountry: "BR",
    },
    ...(sameAs.length > 0 ? { sameAs } : {}),
  };
}
