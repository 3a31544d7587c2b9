import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { data, Link, redirect, useLocation, useNavigate, useNavigation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { Pagination } from "~/components/ui/pagination";
import { BookingButton } from "~/features/leads/components/booking-button";
import { FilterPanel } from "~/features/properties/components/filter-panel";
import { PropertyGrid } from "~/features/properties/components/property-grid";
import { CODIGO_TOO_LONG, codigoTooLong, LIST_PAGE_SIZE, listPageHref, listSearchParams, parseListFilters, type ListFilters } from "~/features/properties/filters";
import { featureFilterOptions } from "~/features/properties/listing-facts";
import { findPublicPropertyIdByCodigo, listPublicPropertiesPage, type PublicListPage } from "~/features/properties/public-queries.server";
import { rootDataFromMatches } from "~/features/site/root-data";
import { useDelayedFlag } from "~/lib/hooks/use-delayed-flag";
import { pageInfo, parsePage } from "~/lib/pagination";
import { errorFields, logger } from "~/lib/logger.server";
import { getDb } from "~/runtime.server";
import { isDatabaseUnavailable } from "~/db/availability.server";
import { DATABASE_UNAVAILABLE_PAGE } from "~/lib/unavailable";
import { pageMeta } from "~/lib/seo";
import { cn } from "~/lib/utils";
import type { Route } from "./+types/properties";
import { useLiveUpdates } from "~/features/live/use-live-updates";
import { listResultsMap } from "~/features/properties/map/map-data.server";
// The 'Mapa' view's component loads only in that view: the list's JavaScript stays as it was.
const ResultsMap = lazy(() => import("~/features/properties/map/components/results-map"));
import { ViewSwitch } from "~/features/properties/map/components/view-switch";
import type { ResultsMapData } from "~/features/properties/map/types";
import { alertFormHtml } from "~/features/alerts/form-html.server";

export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const filters = parseListFilters(params);
  // 'Lista | Mapa' (issue 22, item 4): any other value is the list.
  const view = params.get("visualizacao") === "mapa" ? ("mapa" as const) : ("lista" as const);
  let resultsMap: ResultsMapData | null = null;
  const listQuery = listSearchParams(filters);
  // 'Avise-me' (decision 025): the form's markup comes with the data, so the page's JavaScript stays as it was.
  const alertForm = alertFormHtml(listQuery);
  const views = { lista: `/imoveis${listQuery ? `?${listQuery}` : ""}`, mapa: `/imoveis?${listQuery ? `${listQuery}&` : ""}visualizacao=mapa` };
  // A malformed page reads as the first, one past the end as the last (listPublicPropertiesPage).
  const page = parsePage(params);
  const empty: PublicListPage = { ...pageInfo(1, 0, LIST_PAGE_SIZE), properties: [] };
  // No code is that long: say so rather than search for it. A bad value answers 400, with the
  // page itself (the list's frame and the message), so a hand-edited link still lands somewhere.
  if (codigoTooLong(params)) {
    return data({ filters: { ...filters, codigo: "" }, ...empty, codigoError: CODIGO_TOO_LONG as string | null, featureOptions: featureFilterOptions(), view, views, resultsMap, alertForm }, { status: 400 });
  }
  // Spec §8: a failed load is logged; the list stays empty and says so.
  let list = empty;
  let exact: string | null = null;
  try {
    const db = await getDb();
    // 'Código' search (issue 13): a listing's exact code opens its page; part of one filters the list.
    exact = filters.codigo ? await findPublicPropertyIdByCodigo(db, filters.codigo) : null;
    if (!exact) list = await listPublicPropertiesPage(db, filters, page);
    if (!exact && view === "mapa") resultsMap = await listResultsMap(db, filters, list.total);
  } catch (error) {
    logger("imoveis").error({ ...errorFields(error) }, "public list could not be loaded");
    // A database that cannot answer: the error page with 503 + Retry-After, rather than an empty
    // list that says nothing matched, and that the page cache would keep (issue 21).
    if (isDatabaseUnavailable(error)) throw data(DATABASE_UNAVAILABLE_PAGE.detail, { status: 503 });
  }
  // Thrown, so the loader's data keeps one shape for the page and its callers.
  if (exact) throw redirect(`/imoveis/${exact}`);
  return { filters, ...list, codigoError: null as string | null, featureOptions: featureFilterOptions(), view, views, resultsMap, alertForm };
}

export const meta: Route.MetaFunction = ({ matches, data }) => {
  const { broker, publicUrl } = rootDataFromMatches(matches);
  const page = data?.page ?? 1;
  const pageCount = data?.pageCount ?? 1;
  const filtered = data ? listSearchParams(data.filters) !== "" : false;
  // Filtered variants are the same list for a search engine: their canonical is the plain list
  // (its first page). Each page of the plain list is its own page, with its own address.
  const canonical = filtered || page === 1 ? "/imoveis" : listPageHref(data!.filters, page);
  const tags = pageMeta({
    title: `Imóveis à venda e para alugar em ${broker.serviceArea}${page > 1 ? ` – página ${page}` : ""} | ${broker.siteName}`,
    description: `Casas, apartamentos, terrenos e pontos comerciais em ${broker.serviceArea}. Filtre por bairro, quartos, vagas e preço.`,
    url: `${publicUrl}${canonical}`,
    siteName: broker.siteName,
    image: `${publicUrl}/og-default.jpg`,
  });
  if (data && page > 1) tags.push({ tagName: "link", rel: "prev", href: `${publicUrl}${listPageHref(data.filters, page - 1)}` });
  if (data && page < pageCount) tags.push({ tagName: "link", rel: "next", href: `${publicUrl}${listPageHref(data.filters, page + 1)}` });
  return tags;
};

function activeFilterCount(filters: ListFilters): number {
  return new URLSearchParams(listSearchParams(filters)).size;
}

export default function PropertiesPage({ loaderData }: Route.ComponentProps) {
  // The list, with its current filters, follows the database (spec §2).
  useLiveUpdates("properties");
  const { filters, properties, total, page, pageCount, codigoError, featureOptions, view, views, resultsMap, alertForm } = loaderData;
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
    // The 'Mapa' view stays on while the filters change.
    let query = listSearchParams(next);
    if (view === "mapa") query += `${query && "&"}visualizacao=mapa`;
    const search = query ? `?${query}` : "";
    if (search === location.search) return;
    // replace: Back leaves the list instead of stepping through every filter change. A code
    // search may open a listing's page: Back then returns to the list as it was.
    const replace = next.codigo === filters.codigo;
    navigate(`/imoveis${search}`, { replace, preventScrollReset: true, state: { fromFilterPanel: true } });
  }

  const filtering = navigation.state === "loading" && navigation.location.pathname === "/imoveis";
  const showFiltering = useDelayedFlag(filtering, 300);
  const count = total;

  return (
    <section className="container-page py-8 sm:py-10">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="font-display text-3xl font-bold sm:text-4xl">Imóveis Disponíveis</h1>
          <p className="mt-1 text-muted-foreground" aria-live="polite" aria-atomic="true">
            {count} {count === 1 ? "imóvel encontrado" : "imóveis encontrados"}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <ViewSwitch view={view} hrefs={views} />
          <BookingButton />
        </div>
      </header>

      <div className="mt-6 grid items-start gap-6 lg:grid-cols-[18rem_1fr]">
        {/* Taller than the window once 'Mais filtros' is open: the panel scrolls on its own (issue 22). */}
        <aside className="lg:sticky lg:top-20 lg:max-h-[calc(100vh-6rem)] lg:overflow-y-auto">
          <FilterPanel
            key={panelVersion}
            filters={filters}
            onApply={applyFilters}
            activeCount={activeFilterCount(filters)}
            featureOptions={featureOptions}
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
              <p className="mt-1 text-sm text-muted-foreground">
                {codigoError ??
                  (filters.codigo
                    ? `Nenhum código de imóvel contém “${filters.codigo}”. Confira o código ou veja todos os imóveis.`
                    : "Tente outros filtros ou veja todos os imóveis.")}
              </p>
              <Link to="/imoveis" replace preventScrollReset className={cn(buttonClass("outline"), "mt-4")}>
                Limpar filtros
              </Link>
            </div>
          ) : resultsMap ? (
            <>
              <h2 className="sr-only">Resultados no mapa</h2>
              <Suspense>
                <ResultsMap map={resultsMap} />
              </Suspense>
            </>
          ) : (
            <>
              {/* The cards' titles are h3: this keeps the outline whole where the panel's h2 is hidden (phones). */}
              <h2 className="sr-only">{pageCount > 1 ? `Resultados, página ${page} de ${pageCount}` : "Resultados"}</h2>
              <PropertyGrid properties={properties} className={showFiltering ? "grid gap-6 opacity-60 transition-opacity md:grid-cols-2" : undefined} />
              <Pagination className="mt-8" page={page} pageCount={pageCount} hrefFor={(target) => listPageHref(filters, target)} />
            </>
          )}
          <form method="post" action="/alertas" className="mt-8 rounded-lg border border-border bg-card p-4 sm:p-5" dangerouslySetInnerHTML={{ __html: alertForm }} />
        </div>
      </div>
    </section>
  );
}
