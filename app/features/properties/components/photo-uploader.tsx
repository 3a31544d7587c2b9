import { useEffect, useId, useRef, useState } from "react";
import { Icon } from "~/components/ui/icon";
import { toast } from "~/components/ui/toaster";
import { PHOTO_ACCEPT, preparePhoto } from "~/features/media/prepare-photo";
import { uploadPhoto } from "~/features/media/upload-client";
import { cn } from "~/lib/utils";
import { MAX_PHOTOS, PROPERTY_MESSAGES } from "../crm-schema";
import { SortablePhotos } from "./sortable-photos";

type Upload = { key: string; name: string; progress: number };

/**
 * The dialog's photos: pick several files, watch each upload, remove and reorder (the first is
 * the cover; sortable-photos.tsx). Calls onUploaded for each stored photo so the dialog can clean up if cancelled.
 */
export function PhotoUploader({
  images,
  onChange,
  onUploaded,
  onBusyChange,
}: {
  images: string[];
  onChange: (images: string[]) => void;
  onUploaded: (url: string) => void;
  onBusyChange: (busy: boolean) => void;
}) {
  const inputId = useId();
  const [uploads, setUploads] = useState<Upload[]>([]);
  // Saving waits while anything is still uploading.
  useEffect(() => onBusyChange(uploads.length > 0), [uploads.length, onBusyChange]);
  // Uploads finish in any order; always append to the latest list.
  const latest = useRef(images);
  latest.current = images;

  async function onFiles(files: FileList | null) {
    if (!files || files.length === 0) return;
    const chosen = [...files];
    const room = MAX_PHOTOS - latest.current.length;
    if (chosen.length > room) toast.error(`${PROPERTY_MESSAGES.uploadFailed}no máximo ${MAX_PHOTOS} fotos por imóvel`);
    const accepted = chosen.slice(0, Math.max(0, room));
    if (accepted.length === 0) return;
    const batch = accepted.map((file) => ({ key: `${file.name}-${Math.random()}`, name: file.name, progress: 0, file }));
    // Each file shows at once, 'Preparando…' while the browser shrinks it (progress 0).
    setUploads((current) => [...current, ...batch.map(({ key, name, progress }) => ({ key, name, progress }))]);

    await Promise.all(
      batch.map(async (item) => {
        try {
          const prepared = await preparePhoto(item.file);
          if (!prepared.ok) {
            toast.error(`${PROPERTY_MESSAGES.uploadFailed}${prepared.message}`);
            return;
          }
          const url = await uploadPhoto(prepared.file, (progress) =>
            setUploads((current) => current.map((upload) => (upload.key === item.key ? { ...upload, progress } : upload))),
          );
          onUploaded(url);
          latest.current = [...latest.current, url];
          onChange(latest.current);
        } catch (error) {
          toast.error(`${PROPERTY_MESSAGES.uploadFailed}${(error as Error).message}`);
        } finally {
          setUploads((current) => current.filter((upload) => upload.key !== item.key));
        }
      }),
    );
  }

  return (
    <fieldset className="grid gap-3">
      <legend className="text-sm font-medium">Fotos</legend>
      {images.length > 0 && <SortablePhotos images={images} onChange={onChange} />}

      {uploads.length > 0 && (
        <ul className="grid gap-2" aria-label="Envios em andamento">
          {uploads.map((upload) => (
            <li key={upload.key} className="grid gap-1 text-xs">
              <span className="truncate">{upload.name}</span>
              <progress max={1} value={upload.progress} className="h-2 w-full accent-primary" aria-label={`Enviando ${upload.name}`}>
                {Math.round(upload.progress * 100)}%
              </progress>
            </li>
          ))}
        </ul>
      )}

      <label
        htmlFor={inputId}
        className={cn(
          "flex cursor-pointer flex-col items-center gap-1 rounded-md border-2 border-dashed border-input p-4 text-center text-sm hover:border-primary hover:bg-primary/5",
          "has-[:focus-visible]:outline has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-ring",
        )}
      >
        <Icon name="upload" className="size-6 text-primary" />
        <span className="font-semibold">Adicionar fotos</span>
        <span className="text-xs text-muted-foreground">JPG, PNG, WebP ou HEIC; fotos grandes do celular são reduzidas antes do envio. A primeira é a capa.</span>
        <input
          id={inputId}
          type="file"
          accept={PHOTO_ACCEPT}
          multiple
          className="sr-only"
          onChange={(event) => {
            void onFiles(event.currentTarget.files);
            event.currentTarget.value = "";
          }}
        />
      </label>
    </fieldset>
  );
}
