import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

/**
 * Every URL of the product, top to bottom. Each route module is thin: it calls one feature
 * module (app/features/...) for its queries, commands and components.
 */
export default [
  // The public site (navbar + footer)
  layout("routes/site-layout.tsx", [
    index("routes/home.tsx"),
    route("imoveis", "routes/properties.tsx"),
    // Neighbourhood pages (decision 021): static segments, ranked before imoveis/:id
    route("imoveis/bairros", "routes/neighbourhoods.tsx"),
    route("imoveis/bairro/:slug", "routes/neighbourhood.tsx"),
    route("imoveis/:id", "routes/property.tsx"),
    route("sobre", "routes/about.tsx"),
    route("contato", "routes/contact.tsx"),
    route("agendar-visita", "routes/visit-booking.tsx"),
    route("privacidade", "routes/privacy.tsx"),
    // The visitor's favourites, kept in the browser (issue 13)
    route("favoritos", "routes/favorites.tsx"),
    // 'Avise-me' (issue 23, decision 025): the form's post, and an address's alerts by its e-mailed link
    route("alertas", "routes/alerts-subscribe.tsx"),
    route("alertas/:token", "routes/alerts-manage.tsx"),
    // Any other path: the 404 page, answered with status 404
    route("*", "routes/not-found.tsx"),
  ]),

  // Sign-in and sign-up, and the pages the account e-mails link to
  route("auth", "routes/auth.tsx"),
  route("auth/verificar", "routes/auth-verify.tsx"),
  route("auth/esqueci", "routes/auth-forgot.tsx"),
  route("auth/redefinir", "routes/auth-reset.tsx"),
  route("auth/convite", "routes/auth-invite.tsx"),

  // The broker's CRM: every loader and action checks the role on the server (requireStaff)
  ...prefix("crm", [
    layout("routes/crm-layout.tsx", [
      index("routes/crm-dashboard.tsx"),
      route("imoveis", "routes/crm-properties.tsx"),
      // Issue 23: the leads whose search profile a listing fits (features/matching)
      route("imoveis/:id/leads", "routes/crm-property-leads.tsx"),
      route("leads", "routes/crm-leads.tsx"),
      route("leads/:id", "routes/crm-lead.tsx"),
      route("visitas", "routes/crm-visits.tsx"),
      route("relatorios", "routes/crm-reports.tsx"),
      route("usuarios", "routes/crm-users.tsx"),
      route("conta", "routes/crm-account.tsx"),
      route("emails", "routes/crm-emails.tsx"),
      route("auditoria", "routes/crm-audit.tsx"),
      route("configuracoes", "routes/crm-settings.tsx"),
      route("bairros", "routes/crm-neighbourhoods.tsx"),
      route("privacidade", "routes/crm-privacy.tsx"),
      // Owners and the captação of their listings (issue 23, decision 024)
      route("proprietarios", "routes/crm-owners.tsx"),
      route("proprietarios/:id", "routes/crm-owner.tsx"),
      // The visitors' 'Avise-me' alerts: the demand the site collects (decision 025)
      route("avise-me", "routes/crm-alerts.tsx"),
      // A listing's proposals and deals (issue 24, decision 026)
      route("imoveis/:id/negociacoes", "routes/crm-property-negotiations.tsx"),
      route("sair", "routes/crm-sign-out.tsx"),
    ]),
    // The installable CRM's manifest (issue 25, decision 029): public, like the worker beside it
    route("manifest.webmanifest", "routes/crm-manifest.ts"),
    // Staff-only resources (no page)
    route("midia", "routes/crm-media.ts"),
    route("backup", "routes/crm-backup.ts"),
    route("visitas/:id/ics", "routes/crm-visit-ics.ts"),
    // The address of a CEP, when CEP_LOOKUP_URL names a service (issue 22, item 4)
    route("cep/:cep", "routes/crm-cep.ts"),
    // Downloads (CSV/XLSX) of the reports and of the lists, with the page's filters and period
    route("relatorios/exportar", "routes/crm-reports-export.ts"),
    route("leads/exportar", "routes/crm-leads-export.ts"),
    route("imoveis/exportar", "routes/crm-properties-export.ts"),
    route("privacidade/exportar", "routes/crm-privacy-export.ts"),
    // The listing's ficha (A4 PDF, issue 22): any listing, full address
    route("imoveis/:id/ficha.pdf", "routes/crm-property-ficha.ts"),
    // An owner's LGPD export (admins) and a listing's authorisation PDF (staff), decision 024
    route("proprietarios/:id/exportar", "routes/crm-owner-export.ts"),
    route("captacao/:propertyId/documento", "routes/crm-captacao-document.ts"),
    // The printable proposal (issue 24, decision 026): staff
    route("propostas/:id/proposta.pdf", "routes/crm-proposal-pdf.ts"),
  ]),

  // Resources that are not pages
  route("media/:id/:file", "routes/media.ts"),
  // The listing's ficha (A4 PDF, issue 22) as visitors may see it
  route("imoveis/:id/ficha.pdf", "routes/property-ficha.ts"),
  // The public site's WhatsApp buttons: records the tap, then 302 to wa.me (issue 25, decision 028)
  route("whatsapp", "routes/whatsapp.ts"),
  route("api/events", "routes/api-events.ts"),
  route("healthz", "routes/healthz.ts"),
  // The portals' lead webhook (ZAP, VivaReal, OLX): HTTP Basic with the secret from the settings
  route("api/portais/leads", "routes/portal-leads-webhook.ts"),
  // The listings feed the portals read (VRSync XML); the token in the file name is the key
  route("feeds/vrsync/:file", "routes/portal-feed.ts"),
  // A staff member's private calendar feed (iCalendar); the token in the file name is the key
  route("calendario/:file", "routes/calendar-feed.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
] satisfies RouteConfig;
