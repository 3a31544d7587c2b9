import { useId, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { toast } from "~/components/ui/toaster";
import { PHOTO_ACCEPT, preparePhoto } from "~/features/media/prepare-photo";
import { uploadPhoto } from "~/features/media/upload-client";
import { mediaIdFromUrl, mediaUrlForWidth } from "~/features/media/urls";
import { cn } from "~/lib/utils";

/** Asks the server to delete an upload nobody saved (it refuses if anything shows it). */
function discard(url: string) {
  void fetch("/crm/midia", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ intent: "discard", urls: [url] }),
  }).catch(() => {});
}

/**
 * The portrait: the current one, a button to send a new one, and one to go back to the default.
 * The chosen URL goes with the profile form (hidden field); nothing changes on the site until
 * the profile is saved.
 */
export function PortraitField({
  value,
  savedValue,
  defaultUrl,
  onChange,
  onBusyChange,
  error,
}: {
  value: string;
  savedValue: string;
  defaultUrl: string;
  onChange: (url: string) => void;
  onBusyChange: (busy: boolean) => void;
  error?: string;
}) {
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const [progress, setProgress] = useState<number | null>(null);
  const latest = useRef(value);
  latest.current = value;

  async function onFile(file: File | undefined) {
    if (!file) return;
    setProgress(0);
    onBusyChange(true);
    try {
      // A phone's photo is shrunk (and HEIC made JPEG) in the browser first.
      const prepared = await preparePhoto(file);
      if (!prepared.ok) {
        toast.error(`Não foi possível enviar a foto: ${prepared.message}`);
        return;
      }
      const url = await uploadPhoto(prepared.file, setProgress, "portrait");
      // An earlier upload that was never saved is not needed any more.
      const previous = latest.current;
      if (previous !== savedValue && mediaIdFromUrl(previous)) discard(previous);
      onChange(url);
      toast.success("Foto enviada. Salve o perfil para publicá-la.");
    } catch (caught) {
      toast.error(`Não foi possível enviar a foto: ${(caught as Error).message}`);
    } finally {
      setProgress(null);
      onBusyChange(false);
    }
  }

  const preview = mediaIdFromUrl(value) ? mediaUrlForWidth(value, 400) : value;
  return (
    <fieldset className="grid gap-3" aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium">Foto (retrato)</legend>
      <div className="flex flex-wrap items-start gap-4">
        <img
          src={preview}
          alt="Retrato atual"
          width={160}
          height={200}
          className="aspect-[4/5] w-32 rounded-md border border-border bg-muted object-cover sm:w-40"
          data-testid="portrait-preview"
        />
        <div className="grid min-w-0 flex-1 basis-48 gap-2">
          <label
            htmlFor={inputId}
            className={cn(
              "inline-flex h-11 w-fit cursor-pointer items-center gap-2 rounded-md border border-input bg-white px-4 text-sm font-semibold hover:bg-muted",
              "has-[:focus-visible]:outline has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-ring",
            )}
          >
            <Icon name="camera" className="size-4" />
            Enviar nova foto
            <input
              id={inputId}
              type="file"
              accept={PHOTO_ACCEPT}
              className="sr-only"
              disabled={progress !== null}
              onChange={(event) => {
                void onFile(event.currentTarget.files?.[0]);
                event.currentTarget.value = "";
              }}
            />
          </label>
          <p className="text-xs text-muted-foreground">JPG, PNG, WebP ou HEIC. Foto vertical, de rosto, fica melhor na página “Sobre”.</p>
          {progress !== null && (
            <progress max={1} value={progress} className="h-2 w-full max-w-xs accent-primary" aria-label="Enviando foto">
              {Math.round(progress * 100)}%
            </progress>
          )}
          {value !== defaultUrl && (
            <Button variant="ghost" size="sm" className="w-fit" onClick={() => onChange(defaultUrl)} disabled={progress !== null}>
              <Icon name="image-off" />
              Usar a foto padrão
            </Button>
          )}
          {error && (
            <p id={errorId} className="text-xs font-medium text-destructive">
              {error}
            </p>
          )}
        </div>
      </div>
    </fieldset>
  );
}
