import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Icon, type IconName } from "~/components/ui/icon";
import { mediaIdFromUrl, mediaPreviewUrl, mediaSrcSet } from "~/features/media/urls";
import { serializeJsonLd } from "~/features/properties/structured-data";
import { WHATSAPP_REL, whatsappHref } from "~/features/whatsapp/links";
import { rootDataFromMatches } from "~/features/site/root-data";
import { brokerJsonLd } from "~/features/site/structured-data";
import { useNonce } from "~/lib/nonce";
import { pageMeta } from "~/lib/seo";
import { useRootData } from "~/root";
import type { Route } from "./+types/about";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { broker, publicUrl } = rootDataFromMatches(matches);
  return pageMeta({
    title: `Sobre ${broker.name} | ${broker.siteName}`,
    description: `${broker.name}, corretor de imóveis (${broker.creci}) em ${broker.serviceArea}. ${broker.bio}`.slice(0, 300),
    url: `${publicUrl}/sobre`,
    siteName: broker.siteName,
    // An uploaded portrait has its own 1200×630 preview; the placeholder does not.
    image: `${publicUrl}${mediaIdFromUrl(broker.portraitUrl) ? mediaPreviewUrl(broker.portraitUrl) : "/og-default.jpg"}`,
    imageAlt: `Retrato de ${broker.name}`,
    type: "article",
  });
};

const VALUES: { icon: IconName; title: string; text: string }[] = [
  { icon: "heart", title: "Foco no Cliente", text: "Cada família tem uma história. Ouço antes de mostrar qualquer imóvel." },
  { icon: "eye", title: "Transparência", text: "Valores, documentos e prazos claros desde a primeira conversa." },
  { icon: "briefcase", title: "Profissionalismo", text: "Registro no CRECI, contratos revisados e negociação bem conduzida." },
  { icon: "target", title: "Compromisso", text: "Acompanho você até a entrega das chaves, e depois dela." },
];

export default function AboutPage() {
  const { broker, publicUrl } = useRootData();
  const nonce = useNonce();
  const portraitSrcSet = mediaSrcSet(broker.portraitUrl, [400, 800]);
  return (
    <>
      <script
        type="application/ld+json"
        nonce={nonce}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: serializeJsonLd(brokerJsonLd(broker, publicUrl)) }}
      />
      <section className="bg-sand py-12">
        <div className="container-page grid items-center gap-8 md:grid-cols-[18rem_1fr]">
          <img
            src={broker.portraitUrl}
            // An uploaded portrait comes in several widths: a phone takes the 400 px one.
            srcSet={portraitSrcSet}
            // sizes without srcset is invalid HTML (the placeholder has a single file).
            sizes={portraitSrcSet ? "(min-width: 768px) 18rem, 14rem" : undefined}
            alt={`Retrato de ${broker.name}`}
            width={400}
            height={500}
            className="mx-auto aspect-[4/5] w-56 rounded-lg object-cover shadow-md md:w-full"
          />
          <div>
            <p className="text-sm font-semibold uppercase tracking-widest text-secondary-foreground">Sobre mim</p>
            <h1 className="mt-1 font-display text-3xl font-bold sm:text-4xl">{broker.name}</h1>
            <p className="mt-1 font-medium text-primary">Corretor de imóveis · {broker.creci}</p>
            <p className="mt-4 max-w-2xl whitespace-pre-line leading-relaxed text-foreground/90">{broker.bio}</p>
            <p className="mt-3 flex items-center gap-1 text-muted-foreground">
              <Icon name="map-pin" /> {broker.city} · {broker.serviceArea}
            </p>
            {broker.address && <p className="mt-1 text-muted-foreground">{broker.address}</p>}
          </div>
        </div>
      </section>

      <section className="py-12" aria-labelledby="values-heading">
        <div className="container-page">
          <h2 id="values-heading" className="text-center font-display text-3xl font-bold">
            Meus valores
          </h2>
          <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {VALUES.map((value) => (
              <li key={value.title} className="rounded-lg border border-border bg-white p-6 shadow-sm">
                <Icon name={value.icon} className="size-10 rounded-md bg-primary/10 p-2 text-primary" />
                <h3 className="mt-4 text-lg font-semibold">{value.title}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{value.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="bg-primary py-12 text-white">
        <div className="container-page flex flex-col items-center gap-4 text-center">
          <h2 className="font-display text-3xl font-bold">Vamos encontrar o seu imóvel?</h2>
          <div className="flex flex-col gap-3 sm:flex-row">
            <Link to="/contato" className={buttonClass("accent", "lg")}>
              Fale Comigo
            </Link>
            <Link to="/imoveis" className={buttonClass("onDark", "lg")}>
              Ver Imóveis
            </Link>
            <a href={whatsappHref("sobre")} target="_blank" rel={WHATSAPP_REL} className={buttonClass("whatsapp", "lg")}>
              <Icon name="whatsapp" className="size-5" /> WhatsApp
            </a>
          </div>
        </div>
      </section>
    </>
  );
}
