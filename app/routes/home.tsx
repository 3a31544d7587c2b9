import { data, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { HomeSearch } from "~/features/properties/components/home-search";
import { PropertyCard } from "~/features/properties/components/property-card";
import { listFeaturedProperties } from "~/features/properties/public-queries.server";
import type { PropertyCardData } from "~/features/properties/types";
import { WHATSAPP_REL, whatsappHref } from "~/features/whatsapp/links";
import { TAGLINE } from "~/features/site/components/footer";
import { rootDataFromMatches } from "~/features/site/root-data";
import { getDb } from "~/runtime.server";
import { isDatabaseUnavailable } from "~/db/availability.server";
import { pageMeta } from "~/lib/seo";
import { useRootData } from "~/root";
import type { Route } from "./+types/home";
import { Icon } from "~/components/ui/icon";
import { useLiveUpdates } from "~/features/live/use-live-updates";
import { errorFields, logger } from "~/lib/logger.server";

export async function loader() {
  // Spec §8: a failed featured fetch is only logged; the page shows its empty message.
  let featured: PropertyCardData[] = [];
  try {
    featured = await listFeaturedProperties(await getDb());
  } catch (error) {
    logger("home").error(errorFields(error), "featured properties could not be loaded");
    // A database that cannot answer: 503 + Retry-After, so the empty page is never cached (issue 21).
    if (isDatabaseUnavailable(error)) return data({ featured }, { status: 503 });
  }
  return { featured };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const { broker, publicUrl } = rootDataFromMatches(matches);
  return pageMeta({
    title: `${broker.siteName} | Casas, apartamentos e terrenos em ${broker.serviceArea}`,
    description: `${TAGLINE}. Imóveis à venda e para alugar em ${broker.serviceArea} com ${broker.name}, ${broker.creci}. Atendimento pelo WhatsApp.`,
    url: `${publicUrl}/`,
    siteName: broker.siteName,
    image: `${publicUrl}/og-default.jpg`,
    imageAlt: broker.siteName,
  });
};

const VALUE_POINTS = [
  {
    icon: "building-2" as const,
    title: "Portfólio Completo",
    text: "Casas, apartamentos, terrenos e pontos comerciais em Natal e Parnamirim, para comprar ou alugar.",
  },
  {
    icon: "heart-handshake" as const,
    title: "Atendimento Personalizado",
    text: "Entendo o que você procura e acompanho cada etapa, da primeira visita à entrega das chaves.",
  },
  {
    icon: "award" as const,
    title: "Experiência Comprovada",
    text: "Anos de mercado imobiliário potiguar e dezenas de famílias bem instaladas.",
  },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  // Featured listings follow the database (spec §2: refresh on any change to properties).
  useLiveUpdates("properties");
  const { broker } = useRootData();
  const { featured } = loaderData;
  return (
    <>
      <section className="relative overflow-hidden bg-gradient-to-br from-navy via-[#0b4a60] to-primary text-white">
        <svg aria-hidden="true" className="absolute inset-x-0 bottom-0 h-24 w-full text-white/10" viewBox="0 0 1440 96" preserveAspectRatio="none">
          <path fill="currentColor" d="M0 64c240-48 480-48 720 0s480 48 720 0v32H0z" />
        </svg>
        <div className="container-page relative grid gap-8 py-14 sm:py-20">
          <div className="max-w-3xl">
            <p className="mb-3 text-sm font-semibold uppercase tracking-widest text-accent">{TAGLINE}</p>
            <h1 className="font-display text-4xl font-bold leading-tight sm:text-5xl lg:text-6xl">
              Realize o Sonho do Imóvel Perfeito
            </h1>
            <p className="mt-4 max-w-2xl text-lg text-slate-100">
              Casas, apartamentos, terrenos e pontos comerciais em {broker.serviceArea}, com atendimento
              próximo de quem conhece cada bairro.
            </p>
            <div className="mt-7 flex flex-col gap-3 sm:flex-row">
              <a href={whatsappHref("home", { message: "site" })} target="_blank" rel={WHATSAPP_REL} className={buttonClass("whatsapp", "lg")}>
                <Icon name="whatsapp" className="size-5" /> Falar no WhatsApp
              </a>
              <Link to="/imoveis" className={buttonClass("onDark", "lg")} prefetch="intent">
                Ver Imóveis <Icon name="arrow-right" />
              </Link>
            </div>
          </div>
          <HomeSearch />
        </div>
      </section>

      <section className="bg-sand py-14" aria-labelledby="why-heading">
        <div className="container-page">
          <h2 id="why-heading" className="text-center font-display text-3xl font-bold">
            Por que escolher {broker.name}?
          </h2>
          <ul className="mt-8 grid gap-5 md:grid-cols-3">
            {VALUE_POINTS.map((point) => (
              <li key={point.title} className="rounded-lg bg-white p-6 shadow-sm">
                <Icon name={point.icon} className="size-10 rounded-md bg-primary/10 p-2 text-primary" />
                <h3 className="mt-4 text-lg font-semibold">{point.title}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{point.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="py-14" aria-labelledby="featured-heading">
        <div className="container-page">
          <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
            <div>
              <h2 id="featured-heading" className="font-display text-3xl font-bold">
                Imóveis em Destaque
              </h2>
              <p className="mt-1 text-muted-foreground">Seleção especial de imóveis para você.</p>
            </div>
          </div>
          {featured.length === 0 ? (
            <p className="mt-8 rounded-lg border border-dashed border-border p-8 text-center text-muted-foreground">
              Nenhum imóvel em destaque no momento
            </p>
          ) : (
            <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {featured.map((property) => (
                <li key={property.id}>
                  <PropertyCard property={property} className="h-full" />
                </li>
              ))}
            </ul>
          )}
          <div className="mt-8 text-center">
            <Link to="/imoveis" className={buttonClass("outline", "lg")} prefetch="intent">
              Ver Todos os Imóveis <Icon name="arrow-right" />
            </Link>
          </div>
        </div>
      </section>

      <section className="bg-primary py-14 text-white" aria-labelledby="cta-heading">
        <div className="container-page flex flex-col items-center gap-4 text-center">
          <Icon name="message-circle" className="size-10 text-accent" />
          <h2 id="cta-heading" className="font-display text-3xl font-bold">
            Vamos Conversar?
          </h2>
          <p className="max-w-xl text-slate-100">
            Conte o que você procura. Eu encontro o imóvel certo e cuido de toda a negociação.
          </p>
          <div className="flex flex-col gap-3 sm:flex-row">
            <Link to="/contato" className={buttonClass("accent", "lg")}>
              Fale Comigo
            </Link>
            <a href={whatsappHref("home")} target="_blank" rel={WHATSAPP_REL} className={buttonClass("whatsapp", "lg")}>
              <Icon name="whatsapp" className="size-5" /> WhatsApp
            </a>
          </div>
        </div>
      </section>
    </>
  );
}
