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
import { firstIssueMessage } from "~/lib/form-data";
import type * as LeadSchemas from "../schema";
import type { ContactInput } from "../schema";
import { LEAD_MESSAGES } from "../messages";
import { Honeypot } from "./honeypot";
import { PrivacyNote } from "./privacy-note";

type SchemaModule = typeof LeadSchemas;
let schemaModule: SchemaModule | undefined;
// zod/mini arrives with the first focus (or submit), not with the page; then it is at hand.
const loadSchema = async () => (schemaModule ??= await import("../schema"));

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
    const { contactSchema } = schemaModule ?? (await loadSchema());
    const parsed = contactSchema.safeParse(Object.fromEntries(new FormData(form)));
    if (!parsed.success) {
      toast.error(firstIssueMessage(parsed.error), { id: ERROR_TOAST });
      return;
    }
    toast.dismiss(ERROR_TOAST);
    const chat = window.open("about:blank", "_blank");
    if (chat) chat.opener = null;
    pending.current = { chat, text: contactWhatsAppText(parsed.data) };
    fetcher.submit(form, { method: "post", action: "/contato" });
  }

  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action="/contato"
      noValidate
      onSubmit={onSubmit}
      onFocus={() => void loadSchema()}
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
