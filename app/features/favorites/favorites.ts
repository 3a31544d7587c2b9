import { useSyncExternalStore } from "react";
import { isUuid } from "~/lib/ids";

/**
 * Favourites without an account (issue 13): the ids of the listings a visitor marked, newest
 * first, kept in this browser's localStorage. Nothing reaches the server until /favoritos asks
 * for those listings' cards, so cached public pages stay the same for everyone: the server (and
 * the first render in the browser) shows no favourite, and the hearts fill in after hydration.
 */
export const FAVORITES_KEY = "favoritos";
/** /favoritos asks the server for at most this many listings at once. */
export const MAX_FAVORITES = 50;

const EMPTY: readonly string[] = [];
const listeners = new Set<() => void>();
// Where storage is refused (some private modes, a full quota), favourites last as long as the page.
let memoryOnly = false;
let memory: string | null = null;
let lastRaw: string | null | undefined;
let lastIds: readonly string[] = EMPTY;

function readRaw(): string | null {
  if (memoryOnly) return memory;
  try {
    return window.localStorage.getItem(FAVORITES_KEY);
  } catch {
    memoryOnly = true;
    return memory;
  }
}

/** Only well-formed ids, once each, at most MAX_FAVORITES: storage is editable by anyone. */
export function parseFavorites(raw: string | null): readonly string[] {
  if (!raw) return EMPTY;
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return EMPTY;
    return [...new Set(value.filter(isUuid).map((id) => id.toLowerCase()))].slice(0, MAX_FAVORITES);
  } catch {
    return EMPTY;
  }
}

export const FAVORITES_INVALID = `Lista de favoritos inválida: envie até ${MAX_FAVORITES} identificadores de imóvel separados por vírgula.`;

/**
 * The ids a /favoritos request names (`?ids=a,b,c`): null when the list is malformed (not a
 * listing id, too many), so the page answers 400 instead of guessing.
 */
export function parseFavoriteIds(raw: string): string[] | null {
  // 36 characters per id and a comma: anything longer cannot be a valid list.
  if (raw.length > MAX_FAVORITES * 37) return null;
  const ids = raw.split(",").map((id) => id.trim().toLowerCase()).filter((id) => id !== "");
  if (ids.length > MAX_FAVORITES || !ids.every(isUuid)) return null;
  return [...new Set(ids)];
}

/** The same array while storage is unchanged (useSyncExternalStore compares snapshots). */
export function getFavorites(): readonly string[] {
  const raw = readRaw();
  if (raw !== lastRaw) {
    lastRaw = raw;
    lastIds = parseFavorites(raw);
  }
  return lastIds;
}

export function setFavorites(ids: readonly string[]) {
  const raw = JSON.stringify(parseFavorites(JSON.stringify(ids)));
  memory = raw;
  try {
    if (!memoryOnly) window.localStorage.setItem(FAVORITES_KEY, raw);
  } catch {
    memoryOnly = true;
  }
  listeners.forEach((listener) => listener());
}

export function toggleFavorite(id: string) {
  const ids = getFavorites();
  setFavorites(ids.includes(id) ? ids.filter((other) => other !== id) : [id, ...ids]);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab changed them.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === FAVORITES_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The favourite ids: none on the server and while hydrating, then this browser's. */
export function useFavorites(): readonly string[] {
  return useSyncExternalStore(subscribe, getFavorites, () => EMPTY);
}
