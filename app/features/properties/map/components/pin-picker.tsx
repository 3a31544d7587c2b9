import { useEffect, useRef, useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { Button } from "~/components/ui/button";
import type { TileConfig } from "../tiles";

type Position = { latitude: number; longitude: number };
type Handle = { remove: () => void; set: (position: Position | null) => void };
type Fields = { latitude: string; longitude: string };

/** Natal's centre: where the map opens for a listing with no position yet. */
const NATAL: [number, number] = [-5.795, -35.209];

const parse = (text: string | undefined) => {
  const value = Number((text ?? "").trim().replace(",", "."));
  return text && text.trim() !== "" && Number.isFinite(value) ? value : null;
};

/**
 * The CRM form's map (issue 22, item 4): the broker drags the pin, or taps the map to place it, and
 * the Latitude/Longitude fields follow; typing in those fields (the keyboard way) moves the pin.
 * 'Remover posição' clears both. Leaflet loads with the section (a dynamic import), not with the CRM.
 */
export function PinPicker({ tiles }: { tiles: TileConfig }) {
  const { setValue, control } = useFormContext<Fields>();
  const [latitudeText, longitudeText] = useWatch({ control, name: ["latitude", "longitude"] });
  const latitude = parse(latitudeText);
  const longitude = parse(longitudeText);
  const position = latitude !== null && longitude !== null ? { latitude, longitude } : null;
  const element = useRef<HTMLDivElement>(null);
  const handle = useRef<Handle | null>(null);
  const [ready, setReady] = useState(false);
  const initial = useRef(position);

  useEffect(() => {
    let cancelled = false;
    import("./leaflet-maps").then(
      (module) => {
        if (cancelled || !element.current) return;
        handle.current = module.mountPinPicker(element.current, tiles, initial.current, NATAL, (moved) => {
          setValue("latitude", String(moved.latitude), { shouldDirty: true, shouldValidate: true });
          setValue("longitude", String(moved.longitude), { shouldDirty: true, shouldValidate: true });
        });
        setReady(true);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
      handle.current?.remove();
      handle.current = null;
    };
  }, [tiles, setValue]);

  // Typed coordinates (or a cleared pair) move the pin.
  useEffect(() => {
    handle.current?.set(latitude !== null && longitude !== null ? { latitude, longitude } : null);
  }, [latitude, longitude, ready]);

  return (
    <div className="grid gap-2">
      <p className="text-sm text-muted-foreground" id="pin-picker-help">
        Arraste o marcador ou toque no mapa para marcar a posição do imóvel. Pelo teclado, digite a latitude e a longitude abaixo.
      </p>
      <div className="relative h-64 overflow-hidden rounded-lg border border-border bg-muted sm:h-72">
        <div ref={element} role="region" aria-label="Mapa para marcar a posição do imóvel" aria-describedby="pin-picker-help" className="absolute inset-0 z-0" data-pin-picker={ready ? "ready" : "loading"} />
        {!ready && <p className="absolute inset-0 flex items-center justify-center text-sm text-muted-foreground">Carregando o mapa…</p>}
      </div>
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={!position}
          onClick={() => {
            setValue("latitude", "", { shouldDirty: true, shouldValidate: true });
            setValue("longitude", "", { shouldDirty: true, shouldValidate: true });
          }}
        >
          Remover posição
        </Button>
      </div>
    </div>
  );
}
