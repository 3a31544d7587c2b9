import { useEffect, useState, useSyncExternalStore } from "react";
import { useLocation } from "react-router";
import { Icon } from "~/components/ui/icon";
import { formatDateTime } from "~/lib/format";
import { SERVICE_WORKER_SCOPE, SERVICE_WORKER_URL } from "../manifest";

/**
 * The installable CRM in the page (issue 25, decision 029): the worker's registration, the
 * offline banner of a saved copy and 'Instalar app'. This module is imported by the CRM layout
 * only, so none of it reaches the public site.
 */

type InstallPromptEvent = Event & { prompt(): Promise<void>; userChoice: Promise<{ outcome: "accepted" | "dismissed" }> };

// Chromium may offer the install before React has hydrated: the event is caught as soon as this
// module runs and kept until the button uses it.
let installPrompt: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
if (typeof window !== "undefined") {
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    installPrompt = event as InstallPromptEvent;
    notify();
  });
  window.addEventListener("appinstalled", () => {
    installPrompt = null;
    notify();
  });
}
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Registers /crm/sw.js for /crm, once per page load of the CRM. */
export function useCrmServiceWorker() {
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: SERVICE_WORKER_SCOPE }).catch(() => {
      // Without the worker the CRM works as before, only not offline: nothing to tell the user.
    });
  }, []);
}

/**
 * 'Você está offline…' over a saved copy: the worker marks the copies it serves with
 * data-offline-saved-at on <html>. The next navigation came from the network, so the mark goes.
 */
export function OfflineBanner() {
  const location = useLocation();
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [firstKey] = useState(location.key);
  useEffect(() => {
    const root = document.documentElement;
    if (location.key === firstKey) {
      setSavedAt(root.dataset.offlineSavedAt ?? null);
    } else {
      delete root.dataset.offlineSavedAt;
      setSavedAt(null);
    }
  }, [location.key, firstKey]);
  if (!savedAt || Number.isNaN(Date.parse(savedAt))) return null;
  return (
    <div role="status" className="mb-4 flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-950">
      <Icon name="info" className="mt-0.5 size-4 shrink-0" />
      <span>Você está offline — mostrando a versão salva em {formatDateTime(savedAt)}.</span>
    </div>
  );
}

/**
 * 'Sair' in the page: the saved copies and the worker go at once, before the answer's
 * Clear-Site-Data does the same for the whole site (which also covers a sign-out without
 * JavaScript and other tabs' copies).
 */
export function forgetOfflineCopies() {
  if (typeof caches !== "undefined") {
    void caches.keys().then((names) => Promise.all(names.filter((name) => name.startsWith("crm-")).map((name) => caches.delete(name))));
  }
  if ("serviceWorker" in navigator) {
    void navigator.serviceWorker.getRegistrations().then((all) => Promise.all(all.map((registration) => registration.unregister())));
  }
}

const isStandalone = () => window.matchMedia("(display-mode: standalone)").matches || (navigator as { standalone?: boolean }).standalone === true;
// iPhone and iPad Safari (iPadOS presents itself as a Mac with a touch screen) offer no prompt.
const isAppleMobile = () => /iPhone|iPad|iPod/.test(navigator.userAgent) || (/Macintosh/.test(navigator.userAgent) && navigator.maxTouchPoints > 1);

/** 'Instalar app' in the CRM menu when the browser offers it; on an iPhone, how to do it by hand. */
export function InstallApp() {
  const prompt = useSyncExternalStore(subscribe, () => installPrompt, () => null);
  const [apple, setApple] = useState(false);
  useEffect(() => setApple(isAppleMobile() && !isStandalone()), []);

  if (prompt) {
    return (
      <li>
        <button
          type="button"
          onClick={async () => {
            await prompt.prompt();
            await prompt.userChoice.catch(() => null);
            installPrompt = null;
            notify();
          }}
          className="flex w-full items-center gap-3 rounded-md px-3 py-2.5 text-left text-sm font-medium text-slate-200 hover:bg-white/10 hover:text-white"
        >
          <Icon name="download" className="size-5" />
          Instalar app
        </button>
      </li>
    );
  }
  if (!apple) return null;
  return (
    <li className="flex gap-3 px-3 py-2.5 text-sm text-slate-200">
      <Icon name="share-2" className="size-5 shrink-0" />
      <span>
        <span className="block font-medium text-white">Instalar app</span>
        Toque em Compartilhar e depois em Adicionar à Tela de Início.
      </span>
    </li>
  );
}
