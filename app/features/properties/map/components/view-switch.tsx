import { Link } from "react-router";

/**
 * 'Lista | Mapa' on /imoveis (issue 22, item 4): two links (the loader made their hrefs), so it
 * works before and without JavaScript. Few bytes: the list page's budget is nearly spent.
 */
export function ViewSwitch({ view, hrefs }: { view: "lista" | "mapa"; hrefs: { lista: string; mapa: string } }) {
  return (
    <nav aria-label="Visualização dos resultados" className="flex gap-1 rounded-lg border border-border bg-white p-1 text-sm font-medium">
      {(["lista", "mapa"] as const).map((name) => (
        <Link key={name} to={hrefs[name]} preventScrollReset aria-current={view === name ? "page" : undefined} className={`rounded-md px-4 py-2 ${view === name ? "bg-primary text-primary-foreground" : "hover:bg-muted"}`}>
          {name === "lista" ? "Lista" : "Mapa"}
        </Link>
      ))}
    </nav>
  );
}
