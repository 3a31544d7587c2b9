import { type FormEvent, useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { PhoneInput } from "~/components/ui/phone-input";
import { Textarea } from "~/components/ui/textarea";
import { toast } from "~/components/ui/toaster";
import { whatsappLink } from "~/features/site/broker-profile";
import type { ContactInput } from "../schema";
import { LEAD_MESSAGES } from "../messages";
import { checkForm, loadLeadSchemas } from "./form-check";
import { Honeypot } from "./honeypot";
import { PrivacyNote } from "./privacy-note";

export function contactWhatsAppText(input: ContactInput): string {
  return `Olá! Meu nome é ${input.name}.\n${input.message}\n\nTelefone: ${input.phone}\nEmail: ${input.email}`;
}

/** One error toast for the form: a new problem replaces it, a corrected form takes it away (issue 21). */
const ERROR_TOAST = "contact-error";

/**
 * The contact form: the message becomes a lead, then the chat app opens with the same details
 * (spec §8). The chat tab is opened during the click itself, because browsers block tabs that
 * scripts open later; it is pointed at the chat once the lead is saved, or closed on failure.
 * `defaults`: what the visitor typed, when the page comes back from a failed post without
 * JavaScript.
 */
export function ContactForm({ whatsapp, defaults }: { whatsapp: string; defaults?: Partial<Record<string, string>> }) {
  const fetcher = useFetcher<{ ok: boolean; message: string }>({ key: "contact" });
  const formRef = useRef<HTMLFormElement>(null);
  const pending = useRef<{ chat: Window | null; text: string } | null>(null);
  const sending = fetcher.state !== "idle";

  useEffect(() => {
    const result = fetcher.data;
    const waiting = pending.current;
    if (fetcher.state !== "idle" || !result || !waiting) return;
    pending.current = null;
    if (result.ok) {
      toast.dismiss(ERROR_TOAST);
      toast.success(LEAD_MESSAGES.contactSuccess);
      formRef.current?.reset();
      const url = whatsappLink(whatsapp, waiting.text);
      if (waiting.chat) {
        waiting.chat.location.href = url;
      } else {
        // The browser refused a new tab: go to the chat in this one.
        window.location.href = url;
      }
    } else {
      waiting.chat?.close();
      toast.error(result.message, { id: ERROR_TOAST });
    }
  }, [fetcher.state, fetcher.data, whatsapp]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const schemas = loadLeadSchemas();
    const { contactSchema } = schemas instanceof Promise ? await schemas : schemas;
    const values = checkForm(contactSchema, form, ERROR_TOAST);
    if (!values) return;
    const chat = window.open("about:blank", "_blank");
    if (chat) chat.opener = null;
    pending.current = { chat, text: contactWhatsAppText(values) };
    fetcher.submit(form, { method: "post", action: "/contato" });
  }

  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action="/contato"
      noValidate
      onSubmit={onSubmit}
      onFocus={() => void loadLeadSchemas()}
      className="relative grid gap-4"
    >
      <Honeypot />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor="contact-name">Nome</Label>
          <Input id="contact-name" name="name" autoComplete="name" required maxLength={100} defaultValue={defaults?.name} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="contact-phone">Telefone (WhatsApp)</Label>
          <PhoneInput id="contact-phone" name="phone" required defaultValue={defaults?.phone} />
        </div>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="contact-email">Email</Label>
        <Input id="contact-email" name="email" type="email" inputMode="email" autoComplete="email" required maxLength={255} defaultValue={defaults?.email} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="contact-message">Mensagem</Label>
        <Textarea
          id="contact-message"
          name="message"
          rows={5}
          required
          maxLength={1000}
          placeholder="Conte o que você procura: tipo de imóvel, bairro, faixa de preço..."
          defaultValue={defaults?.message}
        />
      </div>
      <PrivacyNote />
      <Button type="submit" size="lg" disabled={sending}>
        <Icon name="message-circle" />
        {sending ? "Enviando..." : "Enviar Mensagem"}
      </Button>
    </fetcher.Form>
  );
}
