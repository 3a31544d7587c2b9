import { useEffect, useRef, useSyncExternalStore } from "react";
import { data, Link, useFetcher } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { FAVORITES_INVALID, getFavorites, parseFavoriteIds, setFavorites, useFavorites } from "~/features/favorites/favorites";
import { PropertyCard } from "~/features/properties/components/property-card";
import { listPublicPropertiesByIds } from "~/features/properties/public-queries.server";
import { rootDataFromMatches } from "~/features/site/root-data";
import { errorFields, logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/seo";
import { getDb } from "~/runtime.server";
import type { Route } from "./+types/favorites";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { broker, publicUrl } = rootDataFromMatches(matches);
  return pageMeta({
    title: `Meus favoritos | ${broker.siteName}`,
    description: "Os imóveis que você marcou com o coração, salvos neste navegador.",
    url: `${publicUrl}/favoritos`,
    siteName: broker.siteName,
    // One visitor's list, different in every browser: nothing for a search engine.
    noindex: true,
  });
};

/**
 * The favourites live in the browser (features/favorites), so the page arrives without them and
 * asks for their cards once hydrated: `?ids=a,b,c` (at most 50 listing ids). Listings no longer on
 * the site are simply absent from the answer. Never in the public page cache (server/app.ts).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const raw = new URL(request.url).searchParams.get("ids");
  if (raw === null) return { properties: null, error: null };
  const ids = parseFavoriteIds(raw);
  if (!ids) return data({ properties: null, error: FAVORITES_INVALID }, { status: 400 });
  try {
    return { properties: await listPublicPropertiesByIds(await getDb(), ids), error: null };
  } catch (error) {
    logger("favoritos").error({ ...errorFields(error) }, "favourites could not be loaded");
    return data({ properties: null, error: "Não foi possível carregar seus favoritos agora. Tente de novo em instantes." }, { status: 503 });
  }
}

/**
 * The box the server's "Carregando" and the empty list share: the page arrives without the
 * favourites (they live in the browser), so both states take the same room and the footer does
 * not jump once they are known (Lighthouse measured a layout shift of 0.22 here).
 */
const STATE_BOX = "flex min-h-72 flex-col items-center justify-center rounded-lg border border-dashed border-border bg-white p-10 text-center";

const noop = () => () => {};
/** False on the server and while hydrating: until then the favourites are unknown, not empty. */
const useHydrated = () => useSyncExternalStore(noop, () => true, () => false);

export default function FavoritesPage() {
  const hydrated = useHydrated();
  const favorites = useFavorites();
  const fetcher = useFetcher<typeof loader>();
  // The ids the shown cards were asked for. A heart removed here keeps its card (unpressed) until
  // the next visit, so the focus stays put and a slip of the finger is undone with one more press.
  const requested = useRef<readonly string[]>([]);

  useEffect(() => {
    if (!hydrated || favorites.length === 0) return;
    if (favorites.every((id) => requested.current.includes(id))) return;
    requested.current = favorites;
    fetcher.load(`/favoritos?ids=${favorites.join(",")}`);
    // fetcher.load is stable enough: re-run only when the favourites change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated, favorites]);

  // Listings removed from the site leave the browser's list too.
  const cards = fetcher.data?.properties;
  useEffect(() => {
    if (fetcher.state !== "idle" || !cards) return;
    const found = new Set(cards.map((card) => card.id));
    const gone = requested.current.filter((id) => !found.has(id));
    if (gone.length > 0) setFavorites(getFavorites().filter((id) => !gone.includes(id)));
  }, [cards, fetcher.state]);

  const loading = !hydrated || (favorites.length > 0 && (fetcher.state !== "idle" || fetcher.data === undefined));
  const error = fetcher.data?.error;

  return (
    <section className="container-page py-8 sm:py-10">
      <h1 className="font-display text-3xl font-bold sm:text-4xl">Meus favoritos</h1>
      <p className="mt-1 text-muted-foreground">Os imóveis que você marcou com o coração ficam salvos neste navegador.</p>
      {/* What a screen reader hears when the list arrives: a count, not every card. */}
      <p role="status" className="sr-only">
        {loading ? "" : cards && cards.length > 0 ? `${cards.length} ${cards.length === 1 ? "imóvel salvo" : "imóveis salvos"}` : ""}
      </p>

      <div className="mt-6">
        {error ? (
          <p role="alert" className="rounded-lg border border-destructive/40 bg-white p-4 text-destructive">
            {error}
          </p>
        ) : cards && cards.length > 0 ? (
          <>
            <h2 className="sr-only">Imóveis salvos</h2>
            <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
              {cards.map((card, index) => (
                <li key={card.id}>
                  <PropertyCard property={card} priority={index < 2} className="h-full" />
                </li>
              ))}
            </ul>
          </>
        ) : loading ? (
          <div className={STATE_BOX}>
            <p className="flex items-center gap-2 text-muted-foreground">
              <Icon name="loader-circle" className="size-4 [animation:spin_0.8s_linear_infinite]" />
              Carregando seus favoritos...
            </p>
          </div>
        ) : (
          <div className={STATE_BOX}>
            <Icon name="heart" className="mx-auto size-10 text-muted-foreground" />
            <h2 className="mt-3 text-lg font-semibold">Nenhum imóvel favorito ainda</h2>
            <p className="mt-1 text-sm text-muted-foreground">Toque no coração de um imóvel para guardá-lo aqui.</p>
            <Link to="/imoveis" className={`${buttonClass("outline")} mt-4`}>
              Ver imóveis
            </Link>
          </div>
        )}
      </div>
    </section>
  );
}
