import type { BrokerProfile } from "./broker-profile";

type MatchLike = { id: string; data?: unknown } | undefined;

/** The root loader's data from a meta function's `matches` (for titles and absolute URLs). */
export function rootDataFromMatches(matches: readonly MatchLike[]): { broker: BrokerProfile; publicUrl: string } {
  const root = matches.find((match) => match?.id === "root");
  return root!.data as { broker: BrokerProfile; publicUrl: string };
}
