import { type ReactNode, useContext } from "react";
import {
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
} from "react-router";
import type { Route } from "./+types/root";
import appStylesheet from "./app.css?url";
import { brokerProfileNow, loadBrokerProfile } from "~/features/settings/settings.server";
import { isDatabaseUnavailable } from "~/db/availability.server";
import { Toaster } from "~/components/ui/toaster";
import { spriteUrl } from "~/components/ui/icon";
import { useNonce } from "~/lib/nonce";
import { DATABASE_UNAVAILABLE_PAGE } from "~/lib/unavailable";
import { DatabaseUnavailableContext } from "~/lib/unavailable-context";
import { getEnv } from "~/lib/env.server";
import { getDb } from "~/runtime.server";

export const links: Route.LinksFunction = () => [
  // With a precedence React writes the stylesheet at the top of <head>. (Written inline it
  // would save a round trip, but the Nu checker cannot read Tailwind's @property rules:
  // docs/decisions/008-first-paint-before-javascript.md.)
  { rel: "stylesheet", href: appStylesheet, precedence: "default" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
  // Every page draws icons from the sprite: start fetching it with the HTML.
  { rel: "preload", href: spriteUrl, as: "image", type: "image/svg+xml" },
];

/**
 * Every page's loader data reaches the browser, this one's on every page: only the broker's
 * public profile (as saved in /crm/configuracoes, over the environment's first-run defaults) and
 * the site's public URL, nothing about the user or the server.
 */
export async function loader() {
  // While the database cannot answer, the last profile read (or the first-run defaults) frames
  // the page, so that a lead form posted without JavaScript comes back with its message (issue 21).
  const broker = await loadBrokerProfile(await getDb()).catch((error: unknown) => {
    if (isDatabaseUnavailable(error)) return brokerProfileNow();
    throw error;
  });
  return { broker, publicUrl: getEnv().publicUrl };
}

/**
 * The profile changes rarely: navigations keep the copy the page came with (a full page load
 * reads the current one). Saving the settings refetches it, so the CRM's own screens follow.
 */
export function shouldRevalidate({ formAction }: { formAction?: string }) {
  return formAction === "/crm/configuracoes";
}

// Defined below the root so components can read it without importing this module (decision 034).
export { type RootData, useRootData } from "~/features/site/root-data";

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="pt-BR">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b5f7a" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <Toaster />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const databaseUnavailable = useContext(DatabaseUnavailableContext);
  let title = "Algo deu errado";
  let detail = "Tente novamente em instantes.";
  if (databaseUnavailable || (isRouteErrorResponse(error) && error.status === 503)) {
    ({ title, detail } = DATABASE_UNAVAILABLE_PAGE);
  } else if (isRouteErrorResponse(error) && error.status === 404) {
    title = "Oops! Page not found";
    detail = "A página que você procura não existe ou foi removida.";
  } else if (isRouteErrorResponse(error) && error.status === 403) {
    title = "Acesso negado";
    detail = "Você não tem permissão para ver esta página.";
  } else if (import.meta.env.DEV && error instanceof Error) {
    detail = error.message;
  }
  return (
    <main className="container-page flex min-h-[60vh] flex-col items-center justify-center gap-4 py-16 text-center">
      {/* Only the server can tell a database that cannot answer (DatabaseUnavailableContext):
          the browser keeps the server's words instead of its generic ones. */}
      <title suppressHydrationWarning>{`${title} | Imóveis`}</title>
      <h1 className="text-3xl font-bold" suppressHydrationWarning>
        {title}
      </h1>
      <p className="text-muted-foreground" suppressHydrationWarning>
        {detail}
      </p>
      <Link to="/" className="font-semibold text-primary underline underline-offset-4">
        Voltar para o início
      </Link>
    </main>
  );
}
