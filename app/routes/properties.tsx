import { PropertyCard } from "~/features/properties/components/property-card";
import { listPublicProperties } from "~/features/properties/public-queries.server";
import type { PropertyCardData } from "~/features/properties/types";
import { getDb } from "~/lib/runtime.server";
import type { Route } from "./+types/properties";

export async function loader() {
  let properties: PropertyCardData[] = [];
  try {
    properties = await listPublicProperties(await getDb());
  } catch (error) {
    console.error("[imoveis] list could not be loaded:", error);
  }
  return { properties };
}

export const meta: Route.MetaFunction = () => [{ title: "Imóveis à venda e para alugar" }];

export default function Properties({ loaderData }: Route.ComponentProps) {
  const { properties } = loaderData;
  return (
    <section className="container-page py-10">
      <h1 className="font-display text-3xl font-bold">Imóveis</h1>
      <p className="mt-1 text-muted-foreground">
        {properties.length} {properties.length === 1 ? "imóvel encontrado" : "imóveis encontrados"}
      </p>
      <ul className="mt-6 grid gap-6 md:grid-cols-2">
        {properties.map((property, index) => (
          <li key={property.id}>
            <PropertyCard property={property} priority={index < 2} className="h-full" />
          </li>
        ))}
      </ul>
    </section>
  );
}
