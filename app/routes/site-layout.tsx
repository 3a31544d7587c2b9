import { Outlet } from "react-router";
import { Footer } from "~/features/site/components/footer";
import { Navbar } from "~/features/site/components/navbar";

/** The public site's frame: sticky navbar, the page, the footer. */
export default function SiteLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#conteudo" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        Pular para o conteúdo
      </a>
      <Navbar />
      <main id="conteudo" className="flex-1">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
