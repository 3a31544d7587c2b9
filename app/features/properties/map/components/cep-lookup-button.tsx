import { useState } from "react";
import { useFormContext } from "react-hook-form";
import { Button } from "~/components/ui/button";

type Fields = { cep: string; street_address: string; neighborhood: string; city: string; state: string };

/**
 * 'Buscar endereço' beside the CEP (issue 22, item 4): asks /crm/cep/:cep and fills the street,
 * neighbourhood, city and state it answers; shown only when CEP_LOOKUP_URL is configured.
 */
export function CepLookupButton() {
  const { getValues, setValue } = useFormContext<Fields>();
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  async function lookup() {
    const cep = (getValues("cep") ?? "").trim();
    setBusy(true);
    setMessage("");
    try {
      const response = await fetch(`/crm/cep/${encodeURIComponent(cep || "-")}`, { headers: { Accept: "application/json" } });
      const body = (await response.json().catch(() => ({}))) as Partial<Fields & { street: string; message: string }>;
      if (!response.ok) {
        setMessage(body.message ?? "Não foi possível buscar o CEP");
        return;
      }
      const fill = (name: keyof Fields, value: string | undefined) => value && setValue(name, value, { shouldDirty: true, shouldValidate: true });
      fill("street_address", body.street);
      fill("neighborhood", body.neighborhood);
      fill("city", body.city);
      fill("state", body.state);
      setMessage("Endereço preenchido pelo CEP: confira e informe o número.");
    } catch {
      setMessage("Não foi possível buscar o CEP");
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button type="button" variant="outline" size="sm" onClick={lookup} disabled={busy}>
        {busy ? "Buscando…" : "Buscar endereço pelo CEP"}
      </Button>
      <p role="status" className="text-sm text-muted-foreground">
        {message}
      </p>
    </div>
  );
}
