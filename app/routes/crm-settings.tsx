import { useState } from "react";
import { data } from "react-router";
import { requireAdmin } from "~/features/auth/guard.server";
import { loadPortalSettings } from "~/features/portals/portal-settings.server";
import { NotificationEmailsForm } from "~/features/settings/components/notification-emails-form";
import { PortalsSection } from "~/features/settings/components/portals-section";
import { ProfileForm } from "~/features/settings/components/profile-form";
import { TemplatesForm } from "~/features/settings/components/templates-form";
import { WatermarkForm } from "~/features/settings/components/watermark-form";
import { loadWatermark } from "~/features/media/watermark.server";
import { DealSettingsForm } from "~/features/deals/components/deal-settings-form";
import { loadDealSettings } from "~/features/deals/deal-settings.server";
import { LostReasonsForm } from "~/features/settings/components/lost-reasons-form";
import { loadLostReasons } from "~/features/settings/lost-reasons.server";
import { LeaveGuard } from "~/features/settings/components/unsaved-changes";
import { EDITABLE_PROFILE_FIELDS } from "~/features/settings/keys";
import { handleSettingsPost } from "~/features/settings/settings-form.server";
import { loadBrokerProfile, loadNotificationEmails, loadWhatsappTemplates } from "~/features/settings/settings.server";
import { getBrokerProfile } from "~/features/site/broker-profile.server";
import { readBody, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-settings";

/**
 * /crm/configuracoes (admin): the broker's public profile, where new-lead alerts go, and the
 * WhatsApp message templates, the reasons a lead is lost for (issue 24), and the portals' keys (feed address, lead webhook password). The
 * environment only gives first-run defaults; what is saved here is what the site shows, from the
 * next request on.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { db, env } = await getRuntime();
  const [broker, emails, templates, portals, watermark, deals, lostReasons] = await Promise.all([
    loadBrokerProfile(db),
    loadNotificationEmails(db),
    loadWhatsappTemplates(db),
    loadPortalSettings(db, env.publicUrl),
    loadWatermark(db),
    loadDealSettings(db),
    loadLostReasons(db),
  ]);
  return {
    profile: Object.fromEntries(EDITABLE_PROFILE_FIELDS.map((field) => [field, broker[field]])) as Pick<typeof broker, (typeof EDITABLE_PROFILE_FIELDS)[number]>,
    defaultPortraitUrl: getBrokerProfile().portraitUrl,
    emails,
    templates,
    // Admin only (requireAdmin above): the portals need the secret, so the admin must see it.
    portals,
    watermark,
    deals,
    lostReasons,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const runtime = await getRuntime();
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return data({ ok: false, message: body.message }, { status: 400 });
  const result = await handleSettingsPost(runtime, { id: admin.id, email: admin.email, name: admin.name }, body);
  return data(result.body, { status: result.status });
}

export const meta: Route.MetaFunction = () => [{ title: "Configurações | CRM" }];

const SECTION_TITLES = {
  profile: "Perfil do corretor",
  notifications: "Avisos de novos leads",
  templates: "Modelos de mensagem do WhatsApp",
  lostReasons: "Motivos de perda",
} as const;
type Section = keyof typeof SECTION_TITLES;

export default function CrmSettingsPage({ loaderData }: Route.ComponentProps) {
  // Sections with unsaved changes: leaving the page asks first (issue 21).
  const [dirty, setDirty] = useState<Section[]>([]);
  const [onDirtyChange] = useState(() => {
    const track = (section: Section) => (isDirty: boolean) =>
      setDirty((current) => (isDirty ? (current.includes(section) ? current : [...current, section]) : current.filter((item) => item !== section)));
    return { profile: track("profile"), notifications: track("notifications"), templates: track("templates"), lostReasons: track("lostReasons") };
  });
  return (
    <div className="grid gap-6">
      <header>
        <h1 className="text-2xl font-bold">Configurações</h1>
        <p className="text-sm text-muted-foreground">Cada seção tem o seu botão de salvar. O que você salvar aqui aparece no site na próxima visita de cada página.</p>
      </header>
      <ProfileForm profile={loaderData.profile} defaultPortraitUrl={loaderData.defaultPortraitUrl} onDirtyChange={onDirtyChange.profile} />
      <NotificationEmailsForm emails={loaderData.emails} onDirtyChange={onDirtyChange.notifications} />
      <TemplatesForm templates={loaderData.templates} onDirtyChange={onDirtyChange.templates} />
      <LostReasonsForm reasons={loaderData.lostReasons} onDirtyChange={onDirtyChange.lostReasons} />
      <LeaveGuard sections={dirty.map((section) => SECTION_TITLES[section])} />
      <PortalsSection portals={loaderData.portals} />
      <WatermarkForm watermark={loaderData.watermark} brokerName={loaderData.profile.name} />
      <DealSettingsForm settings={loaderData.deals} />
    </div>
  );
}
