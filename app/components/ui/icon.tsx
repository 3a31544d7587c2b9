import spriteUrl from "~/components/icons/sprite.svg?no-inline";
import type { IconName } from "~/components/icons/names";
import { cn } from "~/lib/utils";

export { spriteUrl };
export type { IconName };

/**
 * An icon from our SVG sprite (Lucide drawings plus three brand glyphs). The drawing lives in one
 * cached file, not in the JavaScript: an icon costs a few bytes of markup and nothing else.
 * Decorative by default; give `label` when the icon is the only content of a control.
 */
export function Icon({ name, className, label }: { name: IconName; className?: string; label?: string }) {
  return (
    <svg
      className={cn("size-4 shrink-0", className)}
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden={label ? undefined : true}
      role={label ? "img" : undefined}
      aria-label={label}
      focusable="false"
    >
      <use href={`${spriteUrl}#${name}`} />
    </svg>
  );
}
