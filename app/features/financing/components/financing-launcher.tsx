import { lazy, Suspense, useState } from "react";
import { buttonClass } from "~/components/ui/button";

const loadSimulator = () => import("./financing-simulator");
const FinancingSimulator = lazy(loadSimulator);

/**
 * 'Simulação de financiamento' on a sale listing: a heading and one button. The simulator's
 * code (forms, schedules, tables) loads when the visitor reaches for the button, never with the
 * page (public JavaScript budget, docs/decisions/003). Once opened it stays mounted, so closing
 * and opening again keeps what was typed.
 */
export function FinancingLauncher({ price }: { price: number }) {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const warmUp = () => void loadSimulator();

  return (
    <section aria-labelledby="financing-heading">
      <h2 id="financing-heading" className="text-xl font-semibold">
        Simulação de financiamento
      </h2>
      <p className="mt-2 text-foreground/90">Compare as parcelas nos sistemas SAC e Price para este imóvel.</p>
      <button
        type="button"
        className={`${buttonClass("outline")} mt-3`}
        aria-expanded={open}
        aria-controls="financing-simulator"
        onPointerEnter={warmUp}
        onFocus={warmUp}
        onClick={() => {
          setLoaded(true);
          setOpen(!open);
        }}
      >
        {open ? "Ocultar simulação" : "Simular financiamento"}
      </button>
      <div id="financing-simulator" hidden={!open} className="mt-4">
        {loaded && (
          <Suspense fallback={<p className="text-sm text-muted-foreground">Carregando simulador…</p>}>
            <FinancingSimulator listingPrice={price} />
          </Suspense>
        )}
      </div>
    </section>
  );
}
