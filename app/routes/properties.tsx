import { useEffect, useRef, useState } from "react";
import { Link, useLocation, useNavigate, useNavigation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { BookingButton } from "~/features/leads/components/booking-button";
import { FilterPanel } from "~/features/properties/components/filter-panel";
import { PropertyGrid } from "~/features/properties/components/property-grid";
import { listSearchParams, parseListFilters, type ListFilters } from "~/features/properties/filters";
import { listPublicProperties } from "~/features/properties/public-queries.server";
import type { PropertyCardData } from "~/features/properties/types";
import { rootDataFromMatches } from "~/features/site/root-data";
import { useDelayedFlag } from "~/lib/hooks/use-delayed-flag";
import { errorFields, logger } from "~/lib/logger.server";
import { getDb } from "~/runtime.server";
import { pageMeta } from "~/lib/seo";
import { cn } from "~/lib/utils";
import type { Route } from "./+types/properties";
import { useLiveUpdates } from "~/features/live/use-live-updates";

export async function loader({ request }: Route.LoaderArgs) {
  const filters = parseListFilters(new URL(request.url).searchParams);
  // Spec §8: a failed load is logged; the list stays empty and says so.
  let properties: PropertyCardData[] = [];
  try {
    properties = await listPublicProperties(await getDb(), filters);
  } catch (error) {
    logger("imoveis").error({ ...errorFields(error) }, "public list could not be loaded");
  }
  return { filters, properties };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const { broker, publicUrl } = rootDataFromMatches(matches);
  return pageMeta({
    title: `Imóveis à venda e para alugar em ${broker.serviceArea} | ${broker.siteName}`,
    description: `Casas, apartamentos, terrenos e pontos comerciais em ${broker.serviceArea}. Filtre por bairro, quartos, vagas e preço.`,
    // Filtered variants are the same page for a search engine: one canonical address.
    url: `${publicUrl}/imoveis`,
    siteName: broker.siteName,
    image: `${publicUrl}/og-default.jpg`,
  });
};

function activeFilterCount(filters: ListFilters): number {
  return new URLSearchParams(listSearchParams(filters)).size;
}

export default function PropertiesPage({ loaderData }: Route.ComponentProps) {
  // The list, with its current filters, follows the database (spec §2).
  useLiveUpdates("properties");
  const { filters, properties } = loaderData;
  const navigate = useNavigate();
  const navigation = useNavigation();
  const location = useLocation();

  // The panel keeps its own draft while typing. When the URL changes from elsewhere ('Limpar',
  // a link to /imoveis), it starts over from the URL's filters; its own changes are marked.
  const [panelVersion, setPanelVersion] = useState(0);
  const fromPanel = (location.state as { fromFilterPanel?: boolean } | null)?.fromFilterPanel === true;
  const lastSearch = useRef(location.search);
  useEffect(() => {
    if (location.search === lastSearch.current) return;
    lastSearch.current = location.search;
    if (!fromPanel) setPanelVersion((version) => version + 1);
  }, [location.search, fromPanel]);

  function applyFilters(next: ListFilters) {
    const query = listSearchParams(next);
    const search = query ? `?${query}` : "";
    if (search === location.search) return;
    // replace: Back leaves the list instead of stepping through every filter change.
    navigate(`/imoveis${search}`, { replace: true, preventScrollReset: true, state: { fromFilterPanel: true } });
  }

  const filtering = navigation.state === "loading" && navigation.location.pathname === "/imoveis";
  const showFiltering = useDelayedFlag(filtering, 300);
  const count = properties.length;

  return (
    <section className="container-page py-8 sm:py-10">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="font-display text-3xl font-bold sm:text-4xl">Imóveis Disponíveis</h1>
          <p className="mt-1 text-muted-foreground" aria-live="polite" aria-atomic="true">
            {count} {count === 1 ? "imóvel encontrado" : "imóveis encontrados"}
          </p>
        </div>
        <BookingButton />
      </header>

      <div className="mt-6 grid items-start gap-6 lg:grid-cols-[18rem_1fr]">
        <aside className="lg:sticky lg:top-20">
          <FilterPanel
            key={panelVersion}
            filters={filters}
            onApply={applyFilters}
            activeCount={activeFilterCount(filters)}
          />
        </aside>

        <div className="relative min-h-64">
          {showFiltering && (
            <p role="status" className="mb-4 flex items-center gap-2 text-sm font-medium text-primary">
              <Icon name="loader-circle" className="size-4 [animation:spin_0.8s_linear_infinite]" />
              Aplicando filtros...
            </p>
          )}
          {count === 0 ? (
            <div className="rounded-lg border border-dashed border-border bg-white p-10 text-center">
              <Icon name="search" className="mx-auto size-10 text-muted-foreground" />
              <h2 className="mt-3 text-lg font-semibold">Nenhum imóvel encontrado</h2>
              <p className="mt-1 text-sm text-muted-foreground">Tente outros filtros ou veja todos os imóveis.</p>
              <Link to="/imoveis" replace preventScrollReset className={cn(buttonClass("outline"), "mt-4")}>
                Limpar filtros
              </Link>
            </div>
          ) : (
            <PropertyGrid properties={properties} className={showFiltering ? "grid gap-6 opacity-60 transition-opacity md:grid-cols-2" : undefined} />
          )}
        </div>
      </div>
    </section>
  );
}
