import { createContext } from "react";

/**
 * True while rendering a page whose data could not be read because the database cannot answer
 * (entry.server.tsx sets it from the load context), so the error page says so instead of
 * "Algo deu errado". Only the server knows: the browser receives React Router's sanitised error.
 */
export const DatabaseUnavailableContext = createContext(false);
