import { Outlet, useLocation, useNavigation } from "react-router";
import { Footer } from "~/features/site/components/footer";
import { Navbar } from "~/features/site/components/navbar";
import { useDelayedFlag } from "~/lib/hooks/use-delayed-flag";

/** The public site's frame: sticky navbar, the page, the footer. */
export default function SiteLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#conteudo" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        Pular para o conteúdo
      </a>
      <Navbar />
      <PendingPage />
      <main id="conteudo" className="flex-1">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}

/** While another page's data loads (on a slow connection), say so instead of looking frozen. */
function PendingPage() {
  const navigation = useNavigation();
  const location = useLocation();
  const leaving = navigation.state === "loading" && navigation.location.pathname !== location.pathname;
  const show = useDelayedFlag(leaving, 150);
  if (!show) return null;
  const toList = navigation.location?.pathname === "/imoveis";
  return (
    <div role="status" className="sticky top-16 z-30 bg-primary px-4 py-1.5 text-center text-sm font-medium text-white">
      {toList ? "Carregando imóveis..." : "Carregando..."}
    </div>
  );
}
