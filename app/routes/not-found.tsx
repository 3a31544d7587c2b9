import { data, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import type { Route } from "./+types/not-found";

// Answer with a real 404 status, so search engines drop the address.
export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => [
  { title: "Página não encontrada" },
  { name: "robots", content: "noindex" },
];

export default function NotFound() {
  return (
    <section className="container-page flex min-h-[60vh] flex-col items-center justify-center gap-4 py-16 text-center">
      <p className="text-6xl font-bold text-primary">404</p>
      <h1 className="text-2xl font-bold sm:text-3xl">Oops! Page not found</h1>
      <p className="max-w-md text-muted-foreground">A página que você procura não existe ou foi removida.</p>
      <Link to="/" className={buttonClass("default", "lg")}>
        Voltar para o início
      </Link>
    </section>
  );
}
