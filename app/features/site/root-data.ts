import { useRouteLoaderData } from "react-router";
import type { BrokerProfile } from "./broker-profile";

/** What the root loader (app/root.tsx) gives every page. Kept here so components read it without importing the root. */
export type RootData = { broker: BrokerProfile; publicUrl: string };

/** The root loader's data inside a component. */
export function useRootData(): RootData {
  return useRouteLoaderData("root") as RootData;
}

type MatchLike = { id: string; data?: unknown } | undefined;

/** The root loader's data from a meta function's `matches` (for titles and absolute URLs). */
export function rootDataFromMatches(matches: readonly MatchLike[]): RootData {
  const root = matches.find((match) => match?.id === "root");
  return root!.data as RootData;
}
