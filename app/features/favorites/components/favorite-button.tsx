import { buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { cn } from "~/lib/utils";
import { toggleFavorite, useFavorites } from "../favorites";

/**
 * The heart (issue 13): a toggle button (aria-pressed) whose name stays the same when pressed,
 * as a toggle's must, so a screen reader says "Favoritar …, pressionado"; the tooltip says what a
 * click does next. On a card it is a round icon over the photo; on the property page it has text.
 */
export function FavoriteButton({ id, title, withText = false, className }: { id: string; title: string; withText?: boolean; className?: string }) {
  const pressed = useFavorites().includes(id);
  return (
    <button
      type="button"
      aria-pressed={pressed}
      aria-label={withText ? undefined : `Favoritar ${title}`}
      title={pressed ? "Remover dos favoritos" : "Adicionar aos favoritos"}
      onClick={() => toggleFavorite(id)}
      className={cn(
        withText ? buttonClass("outline") : "grid size-10 place-items-center rounded-full bg-white/95 text-foreground shadow-md hover:bg-white",
        className,
      )}
    >
      <Icon name="heart" className={cn("size-5", pressed && "fill-current text-destructive")} />
      {withText && "Favoritar"}
    </button>
  );
}
