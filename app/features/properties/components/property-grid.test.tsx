import { render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { PropertyCardData } from "../types";
import { CARD_STAGGER_MS, PropertyGrid } from "./property-grid";

const card = (overrides: Partial<PropertyCardData>): PropertyCardData => ({
  id: crypto.randomUUID(),
  codigo: "X-1",
  title: "Casa ampla",
  description: "Descrição da casa ampla.",
  type: "casa",
  purpose: "venda",
  status: "disponivel",
  featured: false,
  price: 450000,
  area: 120,
  bedrooms: 3,
  bathrooms: 0,
  parking_spaces: null,
  neighborhood: "Tirol",
  city: "Natal",
  cover: null,
  ...overrides,
});

function renderGrid(properties: PropertyCardData[]) {
  const Stub = createRoutesStub([{ path: "/", Component: () => <PropertyGrid properties={properties} /> }]);
  return render(<Stub initialEntries={["/"]} />);
}

describe("property grid and card", () => {
  it("staggers the cards' entrance by 80 ms", () => {
    renderGrid([card({ title: "Primeira" }), card({ title: "Segunda" }), card({ title: "Terceira" })]);
    const grid = screen.getAllByRole("list")[0];
    const delays = [...grid.children].map((item) => (item as HTMLElement).style.animationDelay);
    expect(CARD_STAGGER_MS).toBe(80);
    expect(delays).toEqual(["0ms", "80ms", "160ms"]);
  });

  it("shows counts only when truthy, labels, BRL price and the badges", () => {
    renderGrid([card({ featured: true, status: "vendido", purpose: "aluguel", price: 2300, bathrooms: 0, bedrooms: 1 })]);
    const article = screen.getByRole("article");
    expect(article).toHaveTextContent("1 quarto");
    expect(article).not.toHaveTextContent("banheiro");
    expect(article).not.toHaveTextContent("vaga");
    expect(article).toHaveTextContent("120 m²");
    expect(article).toHaveTextContent("Casa");
    expect(article).toHaveTextContent("Aluguel");
    // (the matcher folds the no-break space after "R$" into a plain one)
    expect(article).toHaveTextContent("R$ 2.300/mês");
    expect(article).toHaveTextContent("Destaque");
    expect(article).toHaveTextContent("Vendido");
    expect(screen.getByRole("link", { name: "Casa ampla" })).toHaveAttribute("href", expect.stringMatching(/^\/imoveis\//));
    expect(screen.getByRole("link", { name: /Ver Detalhes/ })).toBeInTheDocument();
  });

  it("reads 'Sob consulta' for a price of zero", () => {
    renderGrid([card({ price: 0 })]);
    expect(screen.getByRole("article")).toHaveTextContent("Sob consulta");
  });
});
