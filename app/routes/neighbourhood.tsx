import { data, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { isDatabaseUnavailable } from "~/db/availability.server";
import { neighbourhoodPageView } from "~/features/neighbourhoods/page-view.server";
import { getNeighbourhoodPage } from "~/features/neighbourhoods/queries.server";
import { useLiveUpdates } from "~/features/live/use-live-updates";
import { PropertyCard } from "~/features/properties/components/property-card";
import { loadBrokerProfile } from "~/features/settings/settings.server";
import { rootDataFromMatches } from "~/features/site/root-data";
import { errorFields, logger } from "~/lib/logger.server";
import { useNonce } from "~/lib/nonce";
import { pageMeta } from "~/lib/seo";
import { DATABASE_UNAVAILABLE_PAGE } from "~/lib/unavailable";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/neighbourhood";

/**
 * /imoveis/bairro/<slug> (issue 22, decision 021): one neighbourhood's listings on the market, its
 * counts and price ranges from our own data, and the broker's text. Everything is formatted in the
 * loader; an unknown slug, or a neighbourhood with nothing on the market, is the 404 page.
 */
export async function loader({ params }: Route.LoaderArgs) {
  try {
    const { db, env } = await getRuntime();
    const page = await getNeighbourhoodPage(db, params.slug);
    if (!page) return data({ page: null }, { status: 404 });
    const broker = await loadBrokerProfile(db);
    return { page: neighbourhoodPageView(page, env.publicUrl, broker.siteName) };
  } catch (error) {
    logger("bairro").error({ ...errorFields(error) }, "neighbourhood page could not be loaded");
    if (isDatabaseUnavailable(error)) throw data(DATABASE_UNAVAILABLE_PAGE.detail, { status: 503 });
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  const { broker, publicUrl } = rootDataFromMatches(matches);
  const page = loaderData?.page;
  if (!page) return [{ title: `Bairro não encontrado | ${broker.siteName}` }, { name: "robots", content: "noindex" }];
  return pageMeta({
    title: `Imóveis em ${page.name}, ${page.place} | ${broker.siteName}`,
    description: page.description,
    url: `${publicUrl}/imoveis/bairro/${page.slug}`,
    siteName: broker.siteName,
    image: `${publicUrl}/og-default.jpg`,
  });
};

export default function NeighbourhoodPage({ loaderData }: Route.ComponentProps) {
  useLiveUpdates("properties", "settings");
  const nonce = useNonce();
  const { page } = loaderData;

  if (!page) {
    return (
      <section className="container-page flex min-h-[50vh] flex-col items-center justify-center gap-4 py-16 text-center">
        <p className="text-6xl font-bold text-primary">404</p>
        <h1 className="text-2xl font-bold">Bairro não encontrado</h1>
        <p className="text-muted-foreground">Não há imóveis disponíveis neste bairro agora.</p>
        <Link to="/imoveis/bairros" className={buttonClass("default", "lg")}>
          Ver todos os bairros
        </Link>
      </section>
    );
  }

  return (
    <section className="container-page py-8 sm:py-10">
      <script type="application/ld+json" nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: page.jsonLd }} />
      <nav aria-label="Navegação estrutural" className="text-sm">
        <ol className="flex flex-wrap items-center gap-1 text-muted-foreground">
          <li><Link to="/imoveis" className="font-medium text-primary underline-offset-4 hover:underline">Imóveis</Link> /</li>
          <li><Link to="/imoveis/bairros" className="font-medium text-primary underline-offset-4 hover:underline">Bairros</Link> /</li>
          <li aria-current="page">{page.name}</li>
        </ol>
      </nav>
      <header className="mt-4">
        <h1 className="font-display text-3xl font-bold sm:text-4xl">Imóveis em {page.name}</h1>
        <p className="mt-1 flex items-center gap-1 text-muted-foreground">
          <Icon name="map-pin" className="size-5" /> {page.place} · {page.summary}
        </p>
      </header>

      {page.text && <p className="mt-4 max-w-3xl whitespace-pre-line leading-relaxed text-foreground/90">{page.text}</p>}

      <div className="mt-6 grid gap-4 md:grid-cols-2">
        <section aria-labelledby="ranges-heading" className="rounded-lg border border-border bg-white p-5">
          <h2 id="ranges-heading" className="text-lg font-semibold">Faixa de preços</h2>
          <dl className="mt-3 grid gap-3">
            {page.ranges.map((row) => (
              <div key={row.label}>
                <dt className="text-sm text-muted-foreground">{row.label} · {row.count}</dt>
                <dd className="font-semibold text-primary">{row.range}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section aria-labelledby="stats-heading" className="rounded-lg border border-border bg-white p-5">
          <h2 id="stats-heading" className="text-lg font-semibold">Imóveis por tipo</h2>
          <table className="mt-3 w-full text-sm">
            <thead className="text-left text-muted-foreground">
              <tr><th scope="col" className="pb-1 font-medium">Tipo</th><th scope="col" className="pb-1 text-right font-medium">Qtd.</th><th scope="col" className="pb-1 pl-3 text-right font-medium">Preços</th></tr>
            </thead>
            <tbody>
              {page.stats.map((row) => (
                <tr key={row.label} className="border-t border-border">
                  <th scope="row" className="py-1.5 text-left font-normal">{row.label}</th>
                  <td className="py-1.5 text-right">{row.count}</td>
                  <td className="py-1.5 pl-3 text-right">{row.range}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>

      <h2 className="mt-10 font-display text-2xl font-bold">Imóveis disponíveis em {page.name}</h2>
      {/* The cards alone, as on the property page: importing the list's grid would split it out of the list's chunk (budget). */}
      <ul className="mt-4 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
        {page.listings.map((card, index) => (
          <li key={card.id}>
            <PropertyCard property={card} priority={index < 2} className="h-full" />
          </li>
        ))}
      </ul>
      {page.more && (
        <Link to={page.more.href} className={`${buttonClass("outline", "lg")} mt-6`}>
          {page.more.text}
        </Link>
      )}
    </section>
  );
}
