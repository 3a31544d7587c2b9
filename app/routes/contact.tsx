import { data } from "react-router";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { ContactForm } from "~/features/leads/components/contact-form";
import { LEAD_MESSAGES } from "~/features/leads/messages";
import { CONTACT_FIELDS, createContactLead, leadFailure } from "~/features/leads/site-leads.server";
import { telLink } from "~/features/site/broker-profile";
import { WHATSAPP_REL, whatsappHref } from "~/features/whatsapp/links";
import { SocialLinks } from "~/features/site/components/social-links";
import { rootDataFromMatches } from "~/features/site/root-data";
import { buttonClass } from "~/components/ui/button";
import { clientIp } from "~/lib/client-ip.server";
import { readForm, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import { pageMeta } from "~/lib/seo";
import { useRootData } from "~/root";
import type { Route } from "./+types/contact";

export async function action({ request, context }: Route.ActionArgs) {
  const fields = await readForm(request);
  // Nothing of an unreadable body is given back: its text is what could not be read.
  if (fields instanceof UnreadableBody) return data({ ok: false as const, message: fields.message, values: {} as Record<string, string> }, { status: 400 });
  const runtime = await getRuntime();
  const { db, env } = runtime;
  const result = await createContactLead({ db, ip: clientIp(request, context), limitPerHour: env.LEAD_LIMIT_PER_HOUR, publicUrl: env.publicUrl }, fields);
  // The alert was enqueued with the lead: send it now rather than at the next poll.
  if (result.ok && result.leadId) {
    runtime.mail.wake();
    runtime.push.wake();
  }
  return result.ok ? { ok: true, message: LEAD_MESSAGES.contactSuccess } : leadFailure(result, fields, CONTACT_FIELDS);
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const { broker, publicUrl } = rootDataFromMatches(matches);
  return pageMeta({
    title: `Contato | ${broker.siteName}`,
    description: `Fale com ${broker.name} (${broker.creci}): telefone ${broker.phone}, WhatsApp ou mensagem pelo site. Atendimento em ${broker.serviceArea}.`,
    url: `${publicUrl}/contato`,
    siteName: broker.siteName,
    image: `${publicUrl}/og-default.jpg`,
  });
};

export default function ContactPage({ actionData }: Route.ComponentProps) {
  const { broker } = useRootData();
  const channels = [
    { icon: "phone" as const, label: "Telefone", value: broker.phone, href: telLink(broker.phone) },
    { icon: "whatsapp" as const, label: "WhatsApp", value: broker.phone, href: whatsappHref("contato"), external: true },
    { icon: "mail" as const, label: "Email", value: broker.email, href: `mailto:${broker.email}` },
    { icon: "map-pin" as const, label: "Localização", value: `${broker.city} · atendo em ${broker.serviceArea}` },
  ];
  return (
    <section className="container-page py-10">
      <header className="max-w-2xl">
        <h1 className="font-display text-3xl font-bold sm:text-4xl">Entre em Contato</h1>
        <p className="mt-2 text-muted-foreground">
          Quer comprar, vender ou alugar? Mande uma mensagem ou chame no WhatsApp: respondo pessoalmente.
        </p>
      </header>

      <div className="mt-8 grid gap-8 lg:grid-cols-[20rem_1fr]">
        <div className="grid content-start gap-4">
          <ul className="grid gap-3">
            {channels.map((channel) => (
              <li key={channel.label}>
                <Card className="flex items-center gap-3 p-4">
                  <span className="grid size-10 shrink-0 place-items-center rounded-full bg-primary/10 text-primary">
                    <Icon name={channel.icon} className="size-5" />
                  </span>
                  <div className="min-w-0">
                    <p className="text-sm text-muted-foreground">{channel.label}</p>
                    {channel.href ? (
                      <a
                        href={channel.href}
                        className="break-words font-semibold text-foreground underline-offset-4 hover:underline"
                        {...(channel.external ? { target: "_blank", rel: WHATSAPP_REL } : {})}
                      >
                        {channel.value}
                      </a>
                    ) : (
                      <p className="font-semibold">{channel.value}</p>
                    )}
                  </div>
                </Card>
              </li>
            ))}
          </ul>
          <a href={whatsappHref("contato", { message: "site" })} target="_blank" rel={WHATSAPP_REL} className={buttonClass("whatsapp", "lg")}>
            <Icon name="whatsapp" className="size-5" /> Chamar no WhatsApp
          </a>
          <div>
            <h2 className="mb-2 text-sm font-semibold">Redes sociais</h2>
            <SocialLinks tone="light" />
          </div>
        </div>

        <Card className="p-5 sm:p-6">
          <h2 className="text-xl font-semibold">Envie uma mensagem</h2>
          {/* Shown when the form was posted without JavaScript. */}
          {actionData && (
            <p role="status" className={actionData.ok ? "mt-4 rounded-md bg-green-50 p-3 text-green-900" : "mt-4 rounded-md bg-red-50 p-3 text-red-900"}>
              {actionData.message}
            </p>
          )}
          <div className="mt-4">
            <ContactForm whatsapp={broker.whatsapp} defaults={actionData && "values" in actionData ? actionData.values : undefined} />
          </div>
        </Card>
      </div>
    </section>
  );
}
