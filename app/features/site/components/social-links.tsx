import { Icon } from "~/components/ui/icon";
import { useLocation } from "react-router";
import { WHATSAPP_REL, whatsappHref, whatsappPageOf } from "~/features/whatsapp/links";
import { useRootData } from "~/features/site/root-data";
import { cn } from "~/lib/utils";

/**
 * The chat app, the photo-sharing site and the social network, each opening in a new tab; a
 * network the broker left empty in the settings is not shown.
 */
export function SocialLinks({ tone }: { tone: "dark" | "light" }) {
  const { broker } = useRootData();
  const { pathname } = useLocation();
  const links = [
    { label: "WhatsApp", icon: "whatsapp" as const, href: whatsappHref(whatsappPageOf(pathname)), rel: WHATSAPP_REL },
    { label: "Instagram", icon: "instagram" as const, href: broker.instagramUrl },
    { label: "Facebook", icon: "facebook" as const, href: broker.facebookUrl },
  ].filter((link) => link.href);
  return (
    <ul className="flex gap-3">
      {links.map((link) => (
        <li key={link.label}>
          <a
            href={link.href}
            target="_blank"
            rel={"rel" in link ? link.rel : "noopener noreferrer"}
            aria-label={link.label}
            className={cn(
              "grid size-11 place-items-center rounded-full",
              tone === "dark" ? "bg-white/10 text-white hover:bg-white/20" : "bg-primary/10 text-primary hover:bg-primary/20",
            )}
          >
            <Icon name={link.icon} className="size-5" />
          </a>
        </li>
      ))}
    </ul>
  );
}
