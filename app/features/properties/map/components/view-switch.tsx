import { Link } from "react-router";
import { cn } from "~/lib/utils";

/** 'Lista | Mapa' on /imoveis (issue 22, item 4): two links, so it works before and without JavaScript. */
export function ViewSwitch({ view, listHref, mapHref }: { view: "lista" | "mapa"; listHref: string; mapHref: string }) {
  const item = (active: boolean) =>
    cn(
      "inline-flex min-h-10 items-center rounded-md px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
      active ? "bg-primary text-primary-foreground" : "text-foreground hover:bg-muted",
    );
  return (
    <nav aria-label="Visualização dos resultados" className="inline-flex gap-1 rounded-lg border border-border bg-white p-1">
      <Link to={listHref} preventScrollReset aria-current={view === "lista" ? "page" : undefined} className={item(view === "lista")}>
        Lista
      </Link>
      <Link to={mapHref} preventScrollReset aria-current={view === "mapa" ? "page" : undefined} className={item(view === "mapa")}>
        Mapa
      </Link>
    </nav>
  );
}
