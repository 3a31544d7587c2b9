import { type FormEvent, useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { PhoneInput } from "~/components/ui/phone-input";
import { Textarea } from "~/components/ui/textarea";
import { toast } from "~/components/ui/toaster";
import { firstIssueMessage } from "~/lib/form-data";
import { LEAD_MESSAGES } from "../messages";
import { Honeypot } from "./honeypot";
import { PrivacyNote } from "./privacy-note";

export type BookingResult = { ok: boolean; message: string };

// The schema (and zod/mini) arrive with the first focus or submit, not with the page.
const loadSchema = () => import("../schema");

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
    const { visitBookingSchema } = await loadSchema();
    const parsed = visitBookingSchema.safeParse(Object.fromEntries(new FormData(form)));
    if (!parsed.success) {
      toast.error(firstIssueMessage(parsed.error), { id: errorToast });
      return;
    }
    toast.dismiss(errorToast);
    fetcher.submit(form, { method: "post", action: "/agendar-visita" });
  }

  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action="/agendar-visita"
      noValidate
      onSubmit={onSubmit}
      onFocus={() => void loadSchema()}
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
      <PrivacyNote />
      <Button type="submit" size="lg" disabled={sending}>
        <Icon name="calendar" />
        {sending ? "Enviando..." : "Agendar Visita"}
      </Button>
    </fetcher.Form>
  );
}
