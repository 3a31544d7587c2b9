import { useEffect, useState } from "react";

/**
 * True once `active` has stayed true for `delayMs`; false as soon as it turns false. Quick work
 * never flashes an indicator; slow work gets one (the list's 'Aplicando filtros...' after 300 ms).
 */
export function useDelayedFlag(active: boolean, delayMs: number): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!active) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), delayMs);
    return () => clearTimeout(timer);
  }, [active, delayMs]);
  return shown;
}
