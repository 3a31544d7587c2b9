import type { loader } from "~/routes/properties";

type ListResult = Awaited<ReturnType<typeof loader>>;
/** What /imoveis renders: its loader's data, whatever the status. */
export type ListPage = Unwrapped<ListResult>;
type Unwrapped<T> = T extends { data: infer Page; init: unknown } ? Page : T;

/**
 * The /imoveis loader's page data. The loader answers a bad value (a code longer than any) with
 * `data(page, { status: 400 })`; tests that read the list want the page either way.
 */
export function listPage(result: ListResult): ListPage {
  return (typeof result === "object" && result !== null && "init" in result && "data" in result ? result.data : result) as ListPage;
}
