import { useEffect, useState } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { useFavorites } from "~/features/favorites/favorites";
import { CODIGO_MAX } from "~/features/properties/filters";
import { WHATSAPP_REL, whatsappHref, whatsappPageOf } from "~/features/whatsapp/links";
import { useRootData } from "~/features/site/root-data";
import { cn } from "~/lib/utils";
import { Icon } from "~/components/ui/icon";

export const NAV_LINKS = [
  { to: "/", label: "Início", end: true },
  { to: "/imoveis", label: "Imóveis", end: false },
  { to: "/sobre", label: "Sobre", end: true },
  { to: "/contato", label: "Contato", end: true },
] as const;

/** Sticky top bar: brand, the four links (active one highlighted), WhatsApp always in reach. */
export function Navbar() {
  const { broker } = useRootData();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const favoriteCount = useFavorites().length;

  // Close the phone menu whenever the page changes (a link was followed, or Back was pressed).
  useEffect(() => setOpen(false), [location.pathname]);

  const linkClass = ({ isActive }: { isActive: boolean }) =>
    cn(
      "rounded-md px-3 py-2 text-sm font-medium transition-colors",
      isActive ? "bg-primary/10 text-primary" : "text-foreground hover:bg-muted",
    );

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85">
      <nav aria-label="Principal" className="container-page flex h-16 items-center justify-between gap-3">
        <Link to="/" className="flex min-w-0 items-center gap-2 font-bold text-navy">
          {/* Below 390 px the name needs the icon's room to fit on two lines. */}
          <span className="grid size-9 shrink-0 place-items-center rounded-md bg-primary text-white max-[389px]:hidden">
            <Icon name="house" className="size-5" />
          </span>
          {/* The whole name: two lines on a phone if need be (issue 21), never cut with "…". */}
          <span className="line-clamp-2 text-[0.9375rem] leading-tight [overflow-wrap:anywhere] sm:text-lg">{broker.siteName}</span>
        </Link>

        <ul className="hidden items-center gap-1 md:flex">
          {NAV_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end={link.end} className={linkClass} prefetch="intent">
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>

        <div className="flex items-center gap-2">
          <CodeSearch id="nav-codigo" className="hidden xl:flex" />
          {/* The count comes from this browser's storage, after hydration: cached pages stay the same for all. */}
          <NavLink
            to="/favoritos"
            prefetch="intent"
            className={({ isActive }) =>
              cn(
                "relative inline-flex h-10 items-center gap-2 rounded-md px-2.5 text-sm font-medium transition-colors",
                isActive ? "bg-primary/10 text-primary" : "text-foreground hover:bg-muted",
              )
            }
          >
            <Icon name="heart" className="size-5" />
            <span className="sr-only lg:not-sr-only">Favoritos</span>
            {favoriteCount > 0 && (
              <>
                <span aria-hidden="true" className="absolute -right-1 -top-1 grid h-5 min-w-5 place-items-center rounded-full bg-primary px-1 text-xs font-semibold text-white lg:static">
                  {favoriteCount}
                </span>
                <span className="sr-only"> ({favoriteCount === 1 ? "1 salvo" : `${favoriteCount} salvos`})</span>
              </>
            )}
          </NavLink>
          <a
            href={whatsappHref(whatsappPageOf(location.pathname))}
            target="_blank"
            rel={WHATSAPP_REL}
            className="inline-flex h-10 items-center gap-2 rounded-md bg-whatsapp px-3 text-sm font-semibold text-white hover:bg-whatsapp-hover"
          >
            <Icon name="whatsapp" className="size-5" />
            <span className="hidden sm:inline">WhatsApp</span>
            <span className="sr-only sm:hidden">Falar no WhatsApp</span>
          </a>
          <button
            type="button"
            className="inline-flex size-10 items-center justify-center rounded-md border border-border md:hidden"
            aria-expanded={open}
            aria-controls="mobile-menu"
            onClick={() => setOpen((value) => !value)}
          >
            {open ? <Icon name="x" className="size-5" /> : <Icon name="menu" className="size-5" />}
            <span className="sr-only">{open ? "Fechar menu" : "Abrir menu"}</span>
          </button>
        </div>
      </nav>

      <div id="mobile-menu" hidden={!open} className="border-t border-border bg-white md:hidden">
        <ul className="container-page flex flex-col gap-1 py-3">
          {NAV_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                end={link.end}
                className={(state) => cn(linkClass(state), "block py-3 text-base")}
                onClick={() => setOpen(false)}
              >
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="container-page pb-4">
          <CodeSearch id="menu-codigo" className="flex px-3" />
        </div>
      </div>
    </header>
  );
}

/** 'Código' search (issue 13): an exact code opens that listing, part of one filters the list. */
function CodeSearch({ id, className }: { id: string; className?: string }) {
  return (
    <Form method="get" action="/imoveis" role="search" aria-label="Buscar pelo código do imóvel" className={cn("items-center gap-2", className)}>
      <label htmlFor={id} className="text-sm font-medium">
        Código
      </label>
      <input
        id={id}
        name="codigo"
        type="search"
        required
        maxLength={CODIGO_MAX}
        placeholder="AP-PN-101"
        autoComplete="off"
        className="h-10 w-full min-w-0 rounded-md border border-input bg-white px-3 text-base shadow-xs placeholder:text-muted-foreground/80 md:text-sm xl:w-32"
      />
      <button type="submit" className="inline-flex size-10 shrink-0 items-center justify-center rounded-md border border-input bg-white hover:bg-muted">
        <Icon name="search" className="size-4" />
        <span className="sr-only">Buscar</span>
      </button>
    </Form>
  );
}
