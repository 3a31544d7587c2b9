import { PropertyCard } from "./property-card";
import type { PropertyCardData } from "../types";

/** Spec §2: cards enter one after another, 80 ms apart (no motion under prefers-reduced-motion, app.css). */
export const CARD_STAGGER_MS = 80;

export function PropertyGrid({ properties, className }: { properties: PropertyCardData[]; className?: string }) {
  return (
    <ul className={className ?? "grid gap-6 md:grid-cols-2"}>
      {properties.map((property, index) => (
        <li key={property.id} className="animate-fade-up" style={{ animationDelay: `${index * CARD_STAGGER_MS}ms` }}>
          {/* The first two covers are on screen at once: load them eagerly. */}
          <PropertyCard property={property} priority={index < 2} className="h-full" />
        </li>
      ))}
    </ul>
  );
}
