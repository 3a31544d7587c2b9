import { data, Link } from "react-router";
import { isDatabaseUnavailable } from "~/db/availability.server";
import { neighbourhoodIndexView } from "~/features/neighbourhoods/page-view.server";
import { listNeighbourhoods } from "~/features/neighbourhoods/queries.server";
import { useLiveUpdates } from "~/features/live/use-live-updates";
import { rootDataFromMatches } from "~/features/site/root-data";
import { errorFields, logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/seo";
import { DATABASE_UNAVAILABLE_PAGE } from "~/lib/unavailable";
import { getDb } from "~/runtime.server";
import type { Route } from "./+types/neighbourhoods";

/** /imoveis/bairros (decision 021): every neighbourhood with a listing on the market, linking to its page. */
export async function loader() {
  try {
    return { neighbourhoods: neighbourhoodIndexView(await listNeighbourhoods(await getDb())) };
  } catch (error) {
    logger("bairros").error({ ...errorFields(error) }, "neighbourhood index could not be loaded");
    if (isDatabaseUnavailable(error)) throw data(DATABASE_UNAVAILABLE_PAGE.detail, { status: 503 });
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const { broker, publicUrl } = rootDataFromMatches(matches);
  return pageMeta({
    title: `Imóveis por bairro em ${broker.serviceArea} | ${broker.siteName}`,
    description: `Os bairros com imóveis à venda e para alugar em ${broker.serviceArea}: quantos imóveis há em cada um e a faixa de preços.`,
    url: `${publicUrl}/imoveis/bairros`,
    siteName: broker.siteName,
    image: `${publicUrl}/og-default.jpg`,
  });
};

export default function NeighbourhoodsPage({ loaderData }: Route.ComponentProps) {
  useLiveUpdates("properties");
  const { neighbourhoods } = loaderData;
  return (
    <section className="container-page py-8 sm:py-10">
      <h1 className="font-display text-3xl font-bold sm:text-4xl">Imóveis por bairro</h1>
      <p className="mt-1 text-muted-foreground">
        {neighbourhoods.length} {neighbourhoods.length === 1 ? "bairro com imóveis disponíveis" : "bairros com imóveis disponíveis"}
      </p>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {neighbourhoods.map((item) => (
          <li key={item.href}>
            <Link to={item.href} className="block h-full rounded-lg border border-border bg-white p-5 shadow-sm transition-shadow hover:shadow-md">
              <span className="block text-lg font-semibold text-primary">{item.name}</span>
              <span className="block text-sm text-muted-foreground">{item.place}</span>
              <span className="mt-2 block text-sm">{item.summary}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
