import { Icon } from "~/components/ui/icon";
import type { PresentedFeatureGroup } from "../listing-facts";

/** 'Características' (issue 22): the listing's features in their two groups, each with its icon. */
export function ListingFeatures({ groups }: { groups: PresentedFeatureGroup[] }) {
  if (groups.length === 0) return null;
  return (
    <section aria-labelledby="features-heading">
      <h2 id="features-heading" className="text-xl font-semibold">
        Características
      </h2>
      <div className="mt-3 grid gap-5 sm:grid-cols-2">
        {groups.map((group) => (
          <div key={group.label}>
            <h3 className="text-sm font-semibold uppercase tracking-wide text-muted-foreground">{group.label}</h3>
            <ul className="mt-2 grid gap-2">
              {group.features.map((feature) => (
                <li key={feature.label} className="flex items-center gap-2">
                  <Icon name={feature.icon} className="size-5 text-primary" />
                  {feature.label}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}
