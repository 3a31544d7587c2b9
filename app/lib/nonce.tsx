import { createContext, useContext, type ReactNode } from "react";

/** The CSP nonce of the current request, for <Scripts>, <ScrollRestoration> and JSON-LD. */
const NonceContext = createContext<string | undefined>(undefined);

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>;
}

/** On the server, this request's nonce; in the browser (which hides nonces) undefined. */
export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
