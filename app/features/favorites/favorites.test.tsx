import { act, fireEvent, render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FavoriteButton } from "./components/favorite-button";
import { FAVORITES_KEY, MAX_FAVORITES, getFavorites, parseFavoriteIds, parseFavorites, setFavorites, toggleFavorite } from "./favorites";

const A = "0b7f3c2e-1a2b-4c3d-9e8f-001122334455";
const B = "1c8f3c2e-1a2b-4c3d-9e8f-001122334466";
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

beforeEach(() => window.localStorage.clear());
afterEach(() => setFavorites([]));

describe("favourites in the browser", () => {
  it("keep only well-formed ids, once each, at most 50 — storage is editable by anyone", () => {
    expect(parseFavorites(null)).toEqual([]);
    expect(parseFavorites("not json")).toEqual([]);
    expect(parseFavorites('{"a":1}')).toEqual([]);
    expect(parseFavorites(JSON.stringify([A, "x", 3, A.toUpperCase(), null, B]))).toEqual([A, B]);
    expect(parseFavorites(JSON.stringify(Array.from({ length: 60 }, (_, n) => id(n))))).toHaveLength(MAX_FAVORITES);
  });

  it("toggle adds the newest first and removes, in localStorage", () => {
    toggleFavorite(A);
    toggleFavorite(B);
    expect(getFavorites()).toEqual([B, A]);
    expect(JSON.parse(window.localStorage.getItem(FAVORITES_KEY)!)).toEqual([B, A]);
    toggleFavorite(B);
    expect(getFavorites()).toEqual([A]);
  });

  it("follow a change made in another tab (the storage event)", () => {
    render(<FavoriteButton id={A} title="Casa azul" />);
    const button = screen.getByRole("button", { name: "Favoritar Casa azul" });
    expect(button).toHaveAttribute("aria-pressed", "false");
    act(() => {
      window.localStorage.setItem(FAVORITES_KEY, JSON.stringify([A]));
      window.dispatchEvent(new StorageEvent("storage", { key: FAVORITES_KEY }));
    });
    expect(button).toHaveAttribute("aria-pressed", "true");
  });
});

describe("the heart", () => {
  it("is a toggle with a name that stays, and a tooltip that says what a press does next", () => {
    render(<FavoriteButton id={A} title="Casa azul" />);
    const button = screen.getByRole("button", { name: "Favoritar Casa azul" });
    expect(button).toHaveAttribute("aria-pressed", "false");
    expect(button).toHaveAttribute("title", "Adicionar aos favoritos");
    fireEvent.click(button);
    expect(button).toHaveAttribute("aria-pressed", "true");
    expect(button).toHaveAttribute("title", "Remover dos favoritos");
    expect(getFavorites()).toEqual([A]);
    fireEvent.click(button);
    expect(button).toHaveAttribute("aria-pressed", "false");
    expect(getFavorites()).toEqual([]);
  });

  it("renders unpressed on the server even when this browser has it, so cached pages are the same for all", () => {
    setFavorites([A]);
    const html = renderToString(<FavoriteButton id={A} title="Casa azul" withText />);
    expect(html).toContain('aria-pressed="false"');
    expect(html).toContain("Favoritar");
  });
});

describe("the ids /favoritos is asked for", () => {
  it("reads up to 50 listing ids separated by commas", () => {
    expect(parseFavoriteIds("")).toEqual([]);
    expect(parseFavoriteIds(`${A}, ${B.toUpperCase()},,${A}`)).toEqual([A, B]);
    expect(parseFavoriteIds(Array.from({ length: 50 }, (_, n) => id(n)).join(","))).toHaveLength(50);
  });

  it("refuses anything else: not an id, 51 ids, an endless string", () => {
    expect(parseFavoriteIds("1,2,3")).toBeNull();
    expect(parseFavoriteIds(`${A},'; drop table properties;--`)).toBeNull();
    expect(parseFavoriteIds(Array.from({ length: 51 }, (_, n) => id(n)).join(","))).toBeNull();
    expect(parseFavoriteIds(",".repeat(10_000))).toBeNull();
  });
});
