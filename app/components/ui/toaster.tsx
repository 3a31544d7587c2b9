import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";

/**
 * Toasts (the spec's §8 messages) without putting sonner's ~10 KB on every public page: sonner
 * loads the first time something is said, which is always after a user action. Call
 * `toast.success(...)` / `toast.error(...)` from anywhere; <Toaster /> sits once in the root.
 */

type Kind = "success" | "error" | "info" | "warning";

let requestMount: (() => void) | undefined;
let mountRequested = false;
let resolveMounted: () => void;
const mounted = new Promise<void>((resolve) => (resolveMounted = resolve));

/**
 * A message may hold a link (e.g. the new-lead toast); duration in ms, Infinity to stay until
 * closed; `id`: a later toast with the same id replaces this one, and `toast.dismiss(id)` removes
 * it (a form's error, once the form is corrected).
 */
type ToastOptions = { duration?: number; id?: string };

function say(kind: Kind, message: ReactNode, options?: ToastOptions) {
  if (typeof window === "undefined") return;
  mountRequested = true;
  requestMount?.();
  // The toaster must be listening before a toast is published, or sonner drops it.
  void Promise.all([import("sonner"), mounted]).then(([sonner]) => sonner.toast[kind](message, options));
}

export const toast = {
  success: (message: ReactNode, options?: ToastOptions) => say("success", message, options),
  error: (message: ReactNode, options?: ToastOptions) => say("error", message, options),
  info: (message: ReactNode, options?: ToastOptions) => say("info", message, options),
  warning: (message: ReactNode, options?: ToastOptions) => say("warning", message, options),
  dismiss: (id: string) => {
    // Nothing was said yet: nothing to take back, and no reason to load sonner for it.
    if (typeof window === "undefined" || !mountRequested) return;
    void Promise.all([import("sonner"), mounted]).then(([sonner]) => sonner.toast.dismiss(id));
  },
};

const SonnerToaster = lazy(() => import("./sonner-toaster"));

export function Toaster() {
  const [show, setShow] = useState(false);
  useEffect(() => {
    requestMount = () => setShow(true);
    if (mountRequested) setShow(true);
    // Someone starting to fill a form will likely see a toast soon: fetch sonner in the background.
    const warmUp = (event: FocusEvent) => {
      if ((event.target as HTMLElement | null)?.closest?.("form")) {
        void import("./sonner-toaster");
        document.removeEventListener("focusin", warmUp);
      }
    };
    document.addEventListener("focusin", warmUp);
    return () => {
      requestMount = undefined;
      document.removeEventListener("focusin", warmUp);
    };
  }, []);
  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster onMounted={() => resolveMounted()} />
    </Suspense>
  );
}
