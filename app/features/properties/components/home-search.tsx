import type { FormEvent } from "react";
import { useNavigate } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { FILTER_ALL, listSearchParams } from "../filters";
import { Icon } from "~/components/ui/icon";
import { PropertyTypeOptions } from "./property-type-options";

/**
 * The home search box. It only navigates: /imoveis?tipo=…&finalidade=…&bairro=… with the
 * non-default values. Without JavaScript it is a plain GET form to the same place.
 */
export function HomeSearch() {
  const navigate = useNavigate();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const query = listSearchParams({
      tipo: String(form.get("tipo") ?? FILTER_ALL),
      finalidade: String(form.get("finalidade") ?? FILTER_ALL),
      bairro: String(form.get("bairro") ?? ""),
    });
    navigate(query ? `/imoveis?${query}` : "/imoveis");
  }

  return (
    <form
      method="get"
      action="/imoveis"
      onSubmit={onSubmit}
      role="search"
      aria-label="Buscar imóveis"
      className="grid gap-3 rounded-lg bg-white p-4 text-foreground shadow-xl sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1.4fr_auto] lg:items-end"
    >
      <div className="grid gap-1.5">
        <Label htmlFor="home-tipo">Tipo de imóvel</Label>
        <NativeSelect id="home-tipo" name="tipo" defaultValue={FILTER_ALL}>
          <option value={FILTER_ALL}>Todos os tipos</option>
          <PropertyTypeOptions />
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="home-finalidade">Finalidade</Label>
        <NativeSelect id="home-finalidade" name="finalidade" defaultValue={FILTER_ALL}>
          <option value={FILTER_ALL}>Comprar ou alugar</option>
          <option value="venda">Comprar</option>
          <option value="aluguel">Alugar</option>
        </NativeSelect>
      </div>
      <div className="grid gap-1.5 sm:col-span-2 lg:col-span-1">
        <Label htmlFor="home-bairro">Bairro</Label>
        <Input id="home-bairro" name="bairro" placeholder="Ex.: Ponta Negra" autoComplete="off" />
      </div>
      <Button type="submit" size="lg" className="sm:col-span-2 lg:col-span-1">
        <Icon name="search" /> Buscar
      </Button>
    </form>
  );
}
