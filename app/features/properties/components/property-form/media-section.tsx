import { Controller, useFormContext } from "react-hook-form";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import type { PropertyFormInput } from "../../crm-schema";
import { PhotoUploader } from "../photo-uploader";
import { FormSection, useErrorOf } from "./controls";

/** Mídia: photos (the first is the cover), a video and a 360° tour. */
export function MediaSection({ onUploaded, onBusyChange }: { onUploaded: (url: string) => void; onBusyChange: (busy: boolean) => void }) {
  const { register, control } = useFormContext<PropertyFormInput>();
  const errorOf = useErrorOf();
  return (
    <FormSection id="midia" title="Mídia" hint="Os portais pedem 5 fotos ou mais e destacam quem tem 10 ou mais.">
      <Controller
        control={control}
        name="images"
        render={({ field }) => <PhotoUploader images={field.value ?? []} onChange={field.onChange} onUploaded={onUploaded} onBusyChange={onBusyChange} />}
      />
      <FormField label="Vídeo (YouTube ou Vimeo)" error={errorOf("video_url")} hint="Opcional: o link do vídeo.">
        <Input type="url" inputMode="url" autoComplete="off" maxLength={500} placeholder="https://youtu.be/…" {...register("video_url")} />
      </FormField>
      <FormField label="Tour 360°" error={errorOf("tour_url")} hint="Opcional: link do Matterport, Kuula, CloudPano ou Momento360.">
        <Input type="url" inputMode="url" autoComplete="off" maxLength={500} placeholder="https://my.matterport.com/show/?m=…" {...register("tour_url")} />
      </FormField>
    </FormSection>
  );
}
