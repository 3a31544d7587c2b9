import crypto from "node:crypto";

/**
 * The name under which the CRM's service worker keeps a user's saved pages (decision 029): a
 * hash of the user's id, sent on every CRM page as X-Offline-Key. It only has to tell one user of
 * a device from the next (the worker deletes the pages of any other key it sees); the id itself
 * never reaches the browser.
 */
export const OFFLINE_KEY_HEADER = "X-Offline-Key";

export function offlineKey(userId: string): string {
  return crypto.createHash("sha256").update(`crm-offline:${userId}`).digest("hex").slice(0, 32);
}

/**
 * What 'Sair' asks the browser to forget for the whole site: the Cache API (the saved pages)
 * lives under "storage", which also unregisters the worker and empties localStorage (a visitor's
 * favourites in this browser go too). Not "cache": the HTTP cache holds no CRM page (no-store),
 * and Chromium's clearing of it held the answer back long enough to stall the sign-out
 * (decision 029).
 */
export const SIGN_OUT_CLEARS = '"storage"';
