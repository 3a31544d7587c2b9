import { Link } from "react-router";
import { telLink } from "~/features/site/broker-profile";
import { useRootData } from "~/features/site/root-data";
import { NAV_LINKS } from "./navbar";
import { SocialLinks } from "./social-links";
import { EmailAddress } from "~/components/ui/email-address";
import { Icon } from "~/components/ui/icon";

export const TAGLINE = "Seu sonho é meu compromisso";

export function Footer() {
  const { broker } = useRootData();
  const heading = "mb-3 text-sm font-semibold uppercase tracking-wide text-white";
  const linkClass = "text-slate-200 underline-offset-4 hover:text-white hover:underline";
  return (
    <footer className="mt-auto bg-navy text-slate-200">
      <div className="container-page grid gap-10 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="flex items-center gap-2 text-lg font-bold text-white">
            <Icon name="house" className="size-5" />
            {broker.siteName}
          </p>
          <p className="mt-2 italic text-slate-200">{TAGLINE}</p>
          <p className="mt-4 text-sm">{broker.creci}</p>
          <p className="text-sm">{broker.city}</p>
        </div>

        <nav aria-label="Links rápidos">
          <h2 className={heading}>Links Rápidos</h2>
          <ul className="space-y-2 text-sm">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={linkClass}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <div>
          <h2 className={heading}>Contato</h2>
          <ul className="space-y-2 text-sm">
            <li className="flex items-center gap-2">
              <Icon name="phone" className="size-4 shrink-0" />
              <a href={telLink(broker.phone)} className={linkClass}>
                {broker.phone}
              </a>
            </li>
            <li className="flex items-center gap-2">
              <Icon name="mail" className="size-4 shrink-0" />
              <a href={`mailto:${broker.email}`} className={`${linkClass} min-w-0`}>
                <EmailAddress email={broker.email} />
              </a>
            </li>
            <li className="flex items-center gap-2">
              <Icon name="map-pin" className="size-4 shrink-0" />
              <span>{broker.address ? `${broker.address} · ${broker.city}` : broker.city}</span>
            </li>
          </ul>
        </div>

        <div>
          <h2 className={heading}>Redes Sociais</h2>
          <SocialLinks tone="dark" />
        </div>
      </div>
      <div className="border-t border-white/15">
        <div className="container-page flex flex-col gap-2 py-5 text-xs text-slate-300 sm:flex-row sm:items-center sm:justify-between">
          <p>© 2025 {broker.siteName}. Todos os direitos reservados.</p>
          <p>
            Desenvolvido por{" "}
            <a href={broker.studioUrl} target="_blank" rel="noopener noreferrer" className="font-semibold text-white underline-offset-4 hover:underline">
              {broker.studioName}
            </a>
          </p>
        </div>
      </div>
    </footer>
  );
}
