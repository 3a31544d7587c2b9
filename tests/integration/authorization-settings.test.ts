import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { audit_log, settings } from "~/db/schema";
import { rerenderIdle, WATERMARK_KEY } from "~/features/media/watermark.server";
import { SETTING_KEYS } from "~/features/settings/keys";
import { getBrokerProfile } from "~/features/site/broker-profile.server";
import { action as settingsAction, loader as settingsLoader } from "~/routes/crm-settings";
import { ACTORS, ADMIN_PAGE_RULE, type Actor, context, matrixRuntime, outcomeOf } from "../helpers/authorization";
import { makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";

/**
 * The authorisation matrix of /crm/configuracoes (admin only): its loader and each section of its
 * action, called with real requests (hand-made form posts) by an anonymous visitor, a signed-in
 * user without a role, a corretor and an admin — with the settings rows and audit rows counted
 * before and after each write.
 */

describe.each(DATABASE_KINDS)("settings authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  const { cookieOf } = matrix;


  const counts = async () => {
    const db = matrix.runtime.db;
    const [[s], [a]] = await Promise.all([
      db.select({ n: count() }).from(settings),
      db.select({ n: count() }).from(audit_log).where(eq(audit_log.action, "settings.update")),
    ]);
    return { settings: s.n, audits: a.n };
  };

  it.each(ACTORS)("loader /crm/configuracoes for %s", async (actor) => {
    const result = await settle(() =>
      settingsLoader({ request: makeRequest("/crm/configuracoes", { cookie: cookieOf(actor) }), params: {}, context } as never),
    );
    expect(outcomeOf(result)).toEqual(ADMIN_PAGE_RULE[actor]);
    // What a refused caller gets carries none of the settings — the portals' secret least of all.
    if (actor !== "admin") {
      expect(JSON.stringify(result)).not.toContain(getBrokerProfile().email);
      expect(JSON.stringify(result)).not.toContain("webhookSecret");
    } else {
      expect((result as { portals: { webhookUser: string } }).portals.webhookUser).toBe("vivareal");
    }
  });

  const sections: { name: string; key: string; form: (actor: Actor) => Record<string, string> }[] = [
    {
      name: "profile",
      key: SETTING_KEYS.brokerProfile,
      form: (actor) => ({
        intent: "profile",
        name: `Nome Salvo Por ${actor}`,
        siteName: "Site Salvo",
        creci: "CRECI-RN 12345-F",
        phone: "(84) 98877-6655",
        whatsapp: "(84) 98877-6655",
        email: "perfil@teste.com.br",
        address: "",
        city: "Natal/RN",
        serviceArea: "Natal",
        instagramUrl: "",
        facebookUrl: "",
        bio: "Texto sobre o corretor, longo o bastante.",
        portraitUrl: getBrokerProfile().portraitUrl,
      }),
    },
    { name: "notifications", key: SETTING_KEYS.notificationEmails, form: (actor) => ({ intent: "notifications", emails: `${actor.toLowerCase()}@teste.com.br` }) },
    // The portals' keys (issue 13): a new feed address, a new random password, a password typed by hand.
    { name: "portal feed token", key: SETTING_KEYS.portalFeedToken, form: () => ({ intent: "portal-feed-token" }) },
    { name: "portal secret (generate)", key: SETTING_KEYS.portalWebhookSecret, form: () => ({ intent: "portal-secret-generate" }) },
    { name: "portal secret (typed)", key: SETTING_KEYS.portalWebhookSecret, form: (actor) => ({ intent: "portal-secret-set", secret: `senha-manual-de-${actor}-123` }) },
    {
      name: "templates",
      key: SETTING_KEYS.whatsappTemplates,
      form: (actor) => ({ intent: "templates", "templates.0.id": "", "templates.0.name": `Modelo de ${actor}`, "templates.0.body": "Olá, {nome}!" }),
    },
    // Issue 24: the reasons a lead is lost for.
    { name: "lost reasons", key: SETTING_KEYS.lostReasons, form: (actor) => ({ intent: "lost-reasons", "reasons.0": "Preço", "reasons.1": `Motivo de ${actor}` }) },
    // Issue 22: the watermark on listing photos.
    { name: "watermark", key: WATERMARK_KEY, form: (actor) => ({ intent: "watermark", enabled: "on", text: `Marca de ${actor}` }) },
  ];

  for (const section of sections) {
    it.each(ACTORS)(`action ${section.name} (a hand-made form post) for %s`, async (actor) => {
      await matrix.runtime.db.delete(settings).where(eq(settings.key, section.key));
      const before = await counts();
      const result = await settle(() =>
        settingsAction({
          request: makeRequest("/crm/configuracoes", { form: section.form(actor), cookie: cookieOf(actor) }),
          params: {},
          context,
        } as never),
      );
      expect(outcomeOf(result)).toEqual(ADMIN_PAGE_RULE[actor]);
      const after = await counts();
      const allowed = actor === "admin" ? 1 : 0;
      expect(after.settings - before.settings).toBe(allowed);
      expect(after.audits - before.audits).toBe(allowed);
      await rerenderIdle(); // the watermark's background re-render, before the runtime stops
    });
  }
});
