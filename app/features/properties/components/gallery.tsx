import { type KeyboardEvent, useRef, useState } from "react";
import { Icon } from "~/components/ui/icon";
import { mediaSrcSet, mediaUrlForWidth } from "~/features/media/urls";
import { cn } from "~/lib/utils";

/** Index after a step, wrapping around both ends (spec §2: the gallery wraps around). */
export function wrapIndex(index: number, step: number, length: number): number {
  return (((index + step) % length) + length) % length;
}

const SWIPE_PX = 40;

/**
 * The property page's gallery: previous/next buttons and thumbnails, wrapping around; the
 * arrow keys when it has focus; a swipe on touch screens. The first photo is the page's main
 * image: loaded at once, with its size, so nothing jumps.
 */
export function Gallery({ images, title }: { images: string[]; title: string }) {
  const [current, setCurrent] = useState(0);
  const touchStart = useRef<number | null>(null);
  const count = images.length;

  if (count === 0) {
    return (
      <div className="grid aspect-[4/3] place-items-center rounded-lg bg-muted text-muted-foreground">
        <Icon name="image-off" className="size-12" label="Sem fotos" />
      </div>
    );
  }

  const go = (step: number) => setCurrent((index) => wrapIndex(index, step, count));

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "ArrowLeft") {
      event.preventDefault();
      go(-1);
    } else if (event.key === "ArrowRight") {
      event.preventDefault();
      go(1);
    }
  }

  return (
    <div
      role="region"
      aria-roledescription="galeria"
      aria-label={`Fotos de ${title}`}
      tabIndex={0}
      onKeyDown={onKeyDown}
      className="grid gap-3 rounded-lg"
    >
      <div
        className="relative aspect-[4/3] touch-pan-y overflow-hidden rounded-lg bg-muted"
        onPointerDown={(event) => {
          if (event.pointerType !== "mouse") touchStart.current = event.clientX;
        }}
        onPointerUp={(event) => {
          if (touchStart.current === null) return;
          const distance = event.clientX - touchStart.current;
          touchStart.current = null;
          if (Math.abs(distance) > SWIPE_PX) go(distance < 0 ? 1 : -1);
        }}
        onPointerCancel={() => (touchStart.current = null)}
      >
        <img
          key={images[current]}
          src={images[current]}
          srcSet={mediaSrcSet(images[current], [400, 800, 1600])}
          sizes="(min-width: 1024px) 760px, 100vw"
          width={1600}
          height={1200}
          alt={`${title} — foto ${current + 1} de ${count}`}
          // The first photo is the largest thing on the page: fetch it first, never lazily.
          loading={current === 0 ? "eager" : "lazy"}
          fetchPriority={current === 0 ? "high" : "auto"}
          decoding="async"
          className="size-full object-cover"
          draggable={false}
        />
        {count > 1 && (
          <>
            <button
              type="button"
              onClick={() => go(-1)}
              className="absolute left-2 top-1/2 grid size-11 -translate-y-1/2 place-items-center rounded-full bg-white/90 text-foreground shadow hover:bg-white"
            >
              <Icon name="chevron-left" className="size-6" label="Foto anterior" />
            </button>
            <button
              type="button"
              onClick={() => go(1)}
              className="absolute right-2 top-1/2 grid size-11 -translate-y-1/2 place-items-center rounded-full bg-white/90 text-foreground shadow hover:bg-white"
            >
              <Icon name="chevron-right" className="size-6" label="Próxima foto" />
            </button>
            <p className="absolute bottom-2 right-2 rounded-full bg-black/65 px-2.5 py-1 text-xs font-medium text-white" aria-live="polite">
              {current + 1} / {count}
            </p>
          </>
        )}
      </div>

      {count > 1 && (
        <ul className="flex gap-2 overflow-x-auto pb-1" aria-label="Miniaturas">
          {images.map((image, index) => (
            <li key={image} className="shrink-0">
              <button
                type="button"
                onClick={() => setCurrent(index)}
                aria-label={`Ver foto ${index + 1}`}
                aria-current={index === current ? "true" : undefined}
                className={cn(
                  "block h-16 w-20 overflow-hidden rounded-md border-2 sm:h-20 sm:w-28",
                  index === current ? "border-primary" : "border-transparent opacity-75 hover:opacity-100",
                )}
              >
                <img src={mediaUrlForWidth(image, 200)} alt="" width={200} height={150} loading="lazy" decoding="async" className="size-full object-cover" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
