import type { PresentedFact } from "../listing-facts";

/** The listing's details (issue 22) and the sale conditions as badges; nothing for empty values. */
export function ListingFacts({ facts, badges }: { facts: PresentedFact[]; badges: string[] }) {
  if (facts.length === 0 && badges.length === 0) return null;
  return (
    <section aria-labelledby="facts-heading">
      <h2 id="facts-heading" className="text-xl font-semibold">
        Detalhes
      </h2>
      {facts.length > 0 && (
        <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-2">
          {facts.map((fact) => (
            <div key={fact.label} className="flex justify-between gap-4 border-b border-border py-2">
              <dt className="text-muted-foreground">{fact.label}</dt>
              <dd className="text-right font-medium">{fact.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {badges.length > 0 && (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label="Condições">
          {badges.map((badge) => (
            <li key={badge} className="rounded-full bg-muted px-3 py-1 text-sm font-medium text-foreground">
              {badge}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
