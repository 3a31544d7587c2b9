import { useEffect, useState } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import type { Role } from "~/db/values";
import { cn } from "~/lib/utils";
import { Icon } from "~/components/ui/icon";
import { InstallApp, forgetOfflineCopies } from "~/features/pwa/components/installable";

export type CrmNavProps = {
  user: { name: string; email: string; role: Role };
  newLeads: number;
  siteName: string;
};

const ROLE_LABELS: Record<Role, string> = { admin: "Administrador", corretor: "Corretor" };

/** The CRM sidebar: a fixed column on wide screens, a menu behind a button on a phone. */
export function CrmNav({ user, newLeads, siteName }: CrmNavProps) {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  useEffect(() => setOpen(false), [location.pathname]);

  const items = [
    { to: "/crm", label: "Dashboard", icon: "layout-dashboard" as const, end: true },
    { to: "/crm/imoveis", label: "Imóveis", icon: "building-2" as const, end: false },
    { to: "/crm/leads", label: "Leads", icon: "users" as const, end: false, badge: newLeads },
    { to: "/crm/proprietarios", label: "Proprietários", icon: "user" as const, end: false },
    { to: "/crm/avise-me", label: "Avise-me", icon: "bell" as const, end: false },
    { to: "/crm/visitas", label: "Visitas", icon: "calendar" as const, end: false },
    { to: "/crm/relatorios", label: "Relatórios", icon: "chart-column" as const, end: false },
    { to: "/crm/bairros", label: "Bairros", icon: "map-pin" as const, end: false },
    ...(user.role === "admin" ? [{ to: "/crm/usuarios", label: "Usuários", icon: "shield-check" as const, end: false }] : []),
    { to: "/crm/conta", label: "Minha conta", icon: "lock" as const, end: false },
    ...(user.role === "admin" ? [{ to: "/crm/emails", label: "E-mails", icon: "mail" as const, end: false }] : []),
    ...(user.role === "admin" ? [{ to: "/crm/auditoria", label: "Auditoria", icon: "clock" as const, end: false }] : []),
    ...(user.role === "admin" ? [{ to: "/crm/configuracoes", label: "Configurações", icon: "settings" as const, end: false }] : []),
    ...(user.role === "admin" ? [{ to: "/crm/privacidade", label: "Privacidade (LGPD)", icon: "shield" as const, end: false }] : []),
  ];

  const links = (
    <ul className="grid gap-1">
      {items.map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            end={item.end}
            prefetch="intent"
            className={({ isActive }) =>
              cn(
                "flex items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium transition-colors",
                isActive ? "bg-white/15 text-white" : "text-slate-200 hover:bg-white/10 hover:text-white",
              )
            }
          >
            <Icon name={item.icon} className="size-5" />
            <span className="flex-1">{item.label}</span>
            {item.badge ? (
              <span className="rounded-full bg-accent px-2 py-0.5 text-xs font-bold text-accent-foreground">
                {item.badge}
                <span className="sr-only"> {item.badge === 1 ? "lead novo" : "leads novos"}</span>
              </span>
            ) : null}
          </NavLink>
        </li>
      ))}
      <li>
        <Link to="/" className="flex items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium text-slate-200 hover:bg-white/10 hover:text-white">
          <Icon name="external-link" className="size-5" />
          Ver Site
        </Link>
      </li>
      <InstallApp />
      <li>
        {/* A document post, not the client router's: the answer's Clear-Site-Data is handled as
            for any page load, and nothing of the CRM stays in the tab's memory (decision 029). */}
        <Form method="post" action="/crm/sair" reloadDocument onSubmit={forgetOfflineCopies}>
          <button type="submit" className="flex w-full items-center gap-3 rounded-md px-3 py-2.5 text-left text-sm font-medium text-slate-200 hover:bg-white/10 hover:text-white">
            <Icon name="log-out" className="size-5" />
            Sair
          </button>
        </Form>
      </li>
    </ul>
  );

  const who = (
    <div className="border-t border-white/15 px-3 pt-4 text-xs text-slate-300">
      <p className="truncate font-semibold text-white">{user.name}</p>
      <p className="truncate">{user.email}</p>
      <p>{ROLE_LABELS[user.role]}</p>
    </div>
  );

  return (
    <>
      {/* Phone: a top bar with a menu button */}
      <div className="sticky top-0 z-40 flex h-14 items-center justify-between bg-navy px-4 text-white lg:hidden">
        <Link to="/crm" className="flex items-center gap-2 font-semibold">
          <Icon name="house" className="size-5" /> CRM
        </Link>
        <button
          type="button"
          aria-expanded={open}
          aria-controls="crm-menu"
          onClick={() => setOpen((value) => !value)}
          className="inline-flex size-10 items-center justify-center rounded-md hover:bg-white/10"
        >
          {open ? <Icon name="x" className="size-5" /> : <Icon name="menu" className="size-5" />}
          <span className="sr-only">{open ? "Fechar menu" : "Abrir menu"}</span>
          {!open && newLeads > 0 && <span aria-hidden="true" className="absolute right-3 top-3 size-2.5 rounded-full bg-accent" />}
        </button>
      </div>
      <nav id="crm-menu" aria-label="Menu do CRM" hidden={!open} className="sticky top-14 z-30 bg-navy px-3 pb-4 lg:hidden">
        {links}
        <div className="mt-3">{who}</div>
      </nav>

      {/* Wide screens: the sidebar */}
      <aside className="hidden w-56 shrink-0 flex-col gap-6 bg-navy p-4 text-white lg:flex lg:min-h-screen">
        <Link to="/crm" className="flex items-center gap-2 px-3 pt-2 font-bold">
          <span className="grid size-9 place-items-center rounded-md bg-primary">
            <Icon name="house" className="size-5" />
          </span>
          <span className="leading-tight">
            CRM
            <span className="block text-xs font-normal text-slate-300">{siteName}</span>
          </span>
        </Link>
        <nav aria-label="Menu do CRM" className="flex-1">
          {links}
        </nav>
        {who}
      </aside>
    </>
  );
}
