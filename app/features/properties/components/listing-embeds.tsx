import { useState } from "react";
import { Icon } from "~/components/ui/icon";
import type { ListingEmbed } from "~/features/properties/embeds";

/**
 * The listing's video and 360° tour, click to load (issue 22, item 5): until the visitor asks,
 * a button stands where the player will be, and nothing is fetched from YouTube, Vimeo or the
 * tour's host. The loader sends the player's address; this only swaps the button for the frame.
 */
export function ListingEmbeds({ embeds }: { embeds: ListingEmbed[] }) {
  if (!embeds.length) return null;
  return (
    <section aria-labelledby="media-heading">
      <h2 id="media-heading" className="text-xl font-semibold">
        Vídeo e tour
      </h2>
      {/* Side by side on wide screens: two full-width 16:9 boxes would fill two screens. */}
      <div className={`mt-2 grid gap-4 ${embeds.length > 1 ? "sm:grid-cols-2" : ""}`}>
        {embeds.map((embed) => (
          <Embed key={embed.kind} embed={embed} />
        ))}
      </div>
    </section>
  );
}

function Embed({ embed }: { embed: ListingEmbed }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="aspect-video overflow-hidden rounded-lg bg-primary/90">
      {open ? (
        <iframe
          ref={(frame) => frame?.focus()}
          src={embed.src}
          title={embed.title}
          className="size-full"
          allow="autoplay; fullscreen; picture-in-picture; encrypted-media; accelerometer; gyroscope; xr-spatial-tracking"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      ) : (
        <button
          type="button"
          onClick={() => setOpen(true)}
          className="flex size-full flex-col items-center justify-center gap-3 text-lg font-semibold text-white focus-visible:outline-4 focus-visible:-outline-offset-8 focus-visible:outline-white"
        >
          <span className="grid size-16 place-items-center rounded-full bg-white/20">
            <Icon name={embed.kind === "video" ? "camera" : "eye"} className="size-8" />
          </span>
          {embed.label}
        </button>
      )}
    </div>
  );
}
