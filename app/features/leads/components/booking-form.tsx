import { type FormEvent, useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { PhoneInput } from "~/components/ui/phone-input";
import { Textarea } from "~/components/ui/textarea";
import { toast } from "~/components/ui/toaster";
import { LEAD_MESSAGES } from "../messages";
import { checkForm, loadLeadSchemas } from "./form-check";
import { Honeypot } from "./honeypot";
import { PrivacyNote } from "./privacy-note";
import { PREFERENCE_SLOTS, preferenceRange, VISIT_PERIOD_LABELS, VISIT_PERIODS } from "../visit-preference-values";

export type BookingResult = { ok: boolean; message: string };

/**
 * The visit booking form: validated in the browser (first problem as a toast), sent to
 * /agendar-visita, validated again there. Without JavaScript it is a plain form to that page.
 */
export function BookingForm({
  propertyId,
  onBooked,
  defaults,
}: {
  propertyId?: string;
  onBooked?: () => void;
  /** What the visitor typed, when the page comes back from a failed post without JavaScript. */
  defaults?: Partial<Record<string, string>>;
}) {
  const fetcher = useFetcher<BookingResult>({ key: `booking-${propertyId ?? "general"}` });
  const formRef = useRef<HTMLFormElement>(null);
  const sending = fetcher.state !== "idle";
  const handled = useRef<BookingResult | undefined>(undefined);
  // One error toast per form: a new problem replaces it, a corrected form takes it away (issue 21).
  const errorToast = `booking-error-${propertyId ?? "general"}`;

  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result || handled.current === result) return;
    handled.current = result;
    if (result.ok) {
      toast.dismiss(errorToast);
      toast.success(LEAD_MESSAGES.bookingSuccess);
      formRef.current?.reset();
      onBooked?.();
    } else {
      // What the visitor typed stays in the form.
      toast.error(result.message, { id: errorToast });
    }
  }, [fetcher.state, fetcher.data, onBooked, errorToast]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { visitBookingSchema } = await loadLeadSchemas();
    if (!checkForm(visitBookingSchema, form, errorToast)) return;
    fetcher.submit(form, { method: "post", action: "/agendar-visita" });
  }

  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action="/agendar-visita"
      noValidate
      onSubmit={onSubmit}
      onFocus={() => void loadLeadSchemas()}
      className="relative grid gap-4"
    >
      <Honeypot />
      {propertyId && <input type="hidden" name="property_id" value={propertyId} />}
      <div className="grid gap-1.5">
        <Label htmlFor="booking-name">Nome completo</Label>
        <Input id="booking-name" name="full_name" autoComplete="name" required maxLength={100} defaultValue={defaults?.full_name} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="booking-phone">Telefone (WhatsApp)</Label>
        <PhoneInput id="booking-phone" name="phone" required defaultValue={defaults?.phone} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="booking-email">Email (opcional)</Label>
        <Input id="booking-email" name="email" type="email" inputMode="email" autoComplete="email" maxLength={255} defaultValue={defaults?.email} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="booking-notes">Mensagem (opcional)</Label>
        <Textarea
          id="booking-notes"
          name="notes"
          maxLength={500}
          rows={3}
          placeholder="Melhores dias e horários para a visita"
          defaultValue={defaults?.notes}
        />
      </div>
      <PreferredDays idPrefix="booking" defaults={defaults} />
      <PrivacyNote />
      <Button type="submit" size="lg" disabled={sending}>
        <Icon name="calendar" />
        {sending ? "Enviando..." : "Agendar Visita"}
      </Button>
    </fetcher.Form>
  );
}

/**
 * Up to three preferred days, each with a period (issue 25): plain date inputs and selects, so
 * they work without JavaScript; the server checks the range again.
 */
function PreferredDays({ idPrefix, defaults }: { idPrefix: string; defaults?: Partial<Record<string, string>> }) {
  const { min, max } = preferenceRange();
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">Dias preferidos para a visita (opcional)</legend>
      {PREFERENCE_SLOTS.map((n) => (
        <div key={n} className="grid grid-cols-[1fr_9rem] gap-2">
          <div className="grid gap-1">
            <Label htmlFor={`${idPrefix}-day-${n}`} className="text-xs">{`${n}º dia`}</Label>
            <Input id={`${idPrefix}-day-${n}`} name={`pref_day_${n}`} type="date" min={min} max={max} defaultValue={defaults?.[`pref_day_${n}`]} />
          </div>
          <div className="grid gap-1">
            <Label htmlFor={`${idPrefix}-period-${n}`} className="text-xs">{`Período do ${n}º dia`}</Label>
            <NativeSelect id={`${idPrefix}-period-${n}`} name={`pref_period_${n}`} defaultValue={defaults?.[`pref_period_${n}`] ?? ""}>
              <option value="">Qualquer</option>
              {VISIT_PERIODS.map((period) => (
                <option key={period} value={period}>
                  {VISIT_PERIOD_LABELS[period]}
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>
      ))}
    </fieldset>
  );
}
