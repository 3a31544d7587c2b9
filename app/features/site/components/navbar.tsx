import { useEffect, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { whatsappLink } from "~/features/site/broker-profile";
import { useRootData } from "~/root";
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
          <span className="grid size-9 shrink-0 place-items-center rounded-md bg-primary text-white">
            <Icon name="house" className="size-5" />
          </span>
          <span className="truncate text-base sm:text-lg">{broker.siteName}</span>
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
          <a
            href={whatsappLink(broker.whatsapp)}
            target="_blank"
            rel="noopener noreferrer"
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
      </div>
    </header>
  );
}
