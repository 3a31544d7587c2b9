import { loader as whatsappLoader } from "~/routes/whatsapp";
import { createElement, Fragment } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { and, count, desc, eq, sql } from "drizzle-orm";
import pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { audit_log, media, settings } from "~/db/schema";
import { onPublicDataChange } from "~/entry.server";
import { sweepOrphanMedia } from "~/features/media/cleanup.server";
import { storeImage } from "~/features/media/pipeline.server";
import { SETTING_KEYS } from "~/features/settings/keys";
import {
  brokerProfileNow,
  dropSettingsCache,
  loadBrokerProfile,
  loadNotificationEmails,
  loadWhatsappTemplates,
} from "~/features/settings/settings.server";
import { DEFAULT_WHATSAPP_TEMPLATES } from "~/features/settings/templates";
import { loadLostReasons } from "~/features/settings/lost-reasons.server";
import { mailSender } from "~/features/mail/worker.server";
import { Footer } from "~/features/site/components/footer";
import { getBrokerProfile } from "~/features/site/broker-profile.server";
import { loader as rootLoader } from "~/root";
import AboutPage, { meta as aboutMeta } from "~/routes/about";
import { action as settingsAction, loader as settingsLoader } from "~/routes/crm-settings";
import { PageCache } from "../../server/page-cache";
import { context } from "../helpers/authorization";
import { createSignedInUser, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * /crm/configuracoes: each section saved through the page's action, refused input keeping the old
 * values, the environment's defaults until something is saved, and the saved profile on the
 * public pages (root loader, the about page's markup and link preview, the footer) on the very
 * next request — the process's profile cache and the public page cache both dropped.
 */

type Answer = { ok: boolean; message: string; errors?: Record<string, string> };
const unwrap = (result: unknown): { status: number; body: Answer } => {
  const wrapped = result as { data: Answer; init: { status?: number } | null };
  return { status: wrapped.init?.status ?? 200, body: wrapped.data };
};

const PROFILE = {
  intent: "profile",
  name: "Marina Albuquerque",
  siteName: "Marina Imóveis Natal",
  creci: "CRECI-RN 12345-F",
  phone: "(84) 98877-6655",
  whatsapp: "(84) 98877-6655",
  email: "marina@imoveisnatal.com.br",
  address: "Av. Prudente de Morais, 1000 - Tirol",
  city: "Natal/RN",
  serviceArea: "Natal, Parnamirim e litoral sul",
  instagramUrl: "https://www.instagram.com/marinaimoveis",
  facebookUrl: "",
  bio: "Corretora em Natal há dez anos, especialista em apartamentos na zona sul.",
  portraitUrl: getBrokerProfile().portraitUrl,
};

/** A real photo through the real pipeline (a 600×750 gradient), as the settings page uploads it. */
async function uploadPortrait(test: TestRuntime): Promise<string> {
  const bytes = await sharp({ create: { width: 600, height: 750, channels: 3, background: { r: 40, g: 90, b: 120 } } }).jpeg().toBuffer();
  return (await storeImage(test.runtime, bytes)).url;
}

describe.each(DATABASE_KINDS)("settings on %s", (kind) => {
  let test: TestRuntime;
  let admin: TestUser;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    admin = await createSignedInUser(test.runtime, "admin");
  });
  afterAll(async () => {
    await test?.stop();
  });

  const post = async (form: Record<string, string>) =>
    unwrap(await settingsAction({ request: makeRequest("/crm/configuracoes", { form, cookie: admin.cookie }), params: {}, context } as never));
  const auditCount = async () =>
    (await test.runtime.db.select({ n: count() }).from(audit_log).where(eq(audit_log.action, "settings.update")))[0].n;
  const rootData = () => rootLoader();

  describe("before anything is saved", () => {
    it("every section shows the environment's first-run defaults", async () => {
      const defaults = getBrokerProfile();
      expect((await rootData()).broker).toEqual(defaults);
      expect(await loadNotificationEmails(test.runtime.db)).toEqual([defaults.email]);
      expect(await loadWhatsappTemplates(test.runtime.db)).toEqual(DEFAULT_WHATSAPP_TEMPLATES);
      const page = (await settingsLoader({ request: makeRequest("/crm/configuracoes", { cookie: admin.cookie }), params: {}, context } as never)) as {
        profile: Record<string, string>;
        emails: string[];
      };
      expect(page.profile.name).toBe(defaults.name);
      expect(page.profile.address).toBe("");
      expect(page.emails).toEqual([defaults.email]);
    });
  });

  describe("the broker's profile", () => {
    // Written behind the page's back: drop this process's copy now rather than wait for the event.
    beforeEach(async () => {
      await test.runtime.db.delete(settings);
      dropSettingsCache();
    });

    it("is saved, audited by field names only, and read by the root loader on the next request", async () => {
      // The cache holds the defaults before the save: the save must drop it.
      expect((await rootData()).broker.name).toBe(getBrokerProfile().name);
      const audits = await auditCount();
      const result = await post(PROFILE);
      expect(result.status).toBe(200);
      expect(result.body.ok).toBe(true);

      const { broker } = await rootData();
      expect(broker).toMatchObject({
        name: PROFILE.name,
        siteName: PROFILE.siteName,
        phone: PROFILE.phone,
        whatsapp: "5584988776655",
        address: PROFILE.address,
        instagramUrl: PROFILE.instagramUrl,
        facebookUrl: "",
      });
      // Not editable here: still the environment's.
      expect(broker.studioName).toBe(getBrokerProfile().studioName);

      expect(await auditCount()).toBe(audits + 1);
      const [row] = await test.runtime.db.select().from(audit_log).where(eq(audit_log.action, "settings.update")).orderBy(desc(audit_log.at)).limit(1);
      expect(row.actor_id).toBe(admin.id);
      expect(row.entity_id).toBe(SETTING_KEYS.brokerProfile);
      expect((row.details as { fields: string[] }).fields).toEqual(expect.arrayContaining(["name", "phone", "whatsapp", "address"]));
      const details = JSON.stringify(row.details);
      for (const value of [PROFILE.name, PROFILE.phone, "5584988776655", PROFILE.email, PROFILE.address]) expect(details).not.toContain(value);
    });

    it("the e-mails' sender name follows the saved site name", async () => {
      await post(PROFILE);
      await rootData();
      expect(brokerProfileNow().siteName).toBe(PROFILE.siteName);
      expect(mailSender({ MAIL_FROM: undefined, publicUrl: "https://imoveis.example.com" } as never)).toBe(
        `"${PROFILE.siteName}" <nao-responda@imoveis.example.com>`,
      );
    });

    it.each([
      ["whatsapp", { whatsapp: "99" }, /WhatsApp inválido/],
      ["phone", { phone: "telefone" }, /Telefone inválido/],
      ["email", { email: "marina@" }, /Email inválido/],
      ["instagramUrl", { instagramUrl: "javascript:alert(1)" }, /Instagram inválido/],
      ["facebookUrl", { facebookUrl: "https://evil.example.com/marina" }, /Facebook inválido/],
      ["bio", { bio: "curto" }, /pelo menos 10 caracteres/],
      ["name", { name: "" }, /Nome deve ter/],
      ["portraitUrl", { portraitUrl: "https://evil.example.com/foto.jpg" }, /Foto inválida/],
      ["portraitUrl", { portraitUrl: "/media/00000000-0000-4000-8000-000000000000/800.webp" }, /Foto inválida/],
    ] as const)("refuses a bad %s (400, Portuguese message) and keeps the saved profile", async (field, change, message) => {
      await post(PROFILE);
      const audits = await auditCount();
      const result = await post({ ...PROFILE, name: "Outro Nome", ...change });
      expect(result.status).toBe(400);
      expect(result.body.ok).toBe(false);
      expect(result.body.message).toMatch(message);
      expect(result.body.errors?.[field]).toMatch(message);
      expect((await rootData()).broker.name).toBe(PROFILE.name);
      expect(await auditCount()).toBe(audits);
    });

    it("a form with a field sent twice, or no intent, is refused without saving", async () => {
      const request = new Request("http://localhost:3000/crm/configuracoes", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: admin.cookie, Origin: "http://localhost:3000" },
        body: new URLSearchParams([...Object.entries(PROFILE), ["name", "Segundo Nome"]]).toString(),
      });
      const twice = unwrap(await settingsAction({ request, params: {}, context } as never));
      expect(twice.status).toBe(400);
      const noIntent = await post({ name: "Sem Intenção" });
      expect(noIntent.status).toBe(400);
      expect(noIntent.body.message).toMatch(/formato inválido/);
      expect(await test.runtime.db.select().from(settings)).toHaveLength(0);
    });

    it("a stored value edited by hand into something unsafe falls back to the default for that field", async () => {
      await test.runtime.db.insert(settings).values({
        key: SETTING_KEYS.brokerProfile,
        value: { name: "Nome Pelo Console", instagramUrl: "javascript:alert(1)", portraitUrl: "https://evil.example.com/x.jpg" },
      });
      dropSettingsCache();
      const { broker } = await rootData();
      expect(broker.name).toBe("Nome Pelo Console");
      expect(broker.instagramUrl).toBe(getBrokerProfile().instagramUrl);
      expect(broker.portraitUrl).toBe(getBrokerProfile().portraitUrl);
    });

    it("the about page, its link preview, structured data and the footer show the saved profile", async () => {
      const portraitUrl = await uploadPortrait(test);
      expect((await post({ ...PROFILE, portraitUrl })).status).toBe(200);
      const data = await rootData();
      const Stub = createRoutesStub([
        {
          id: "root",
          path: "/",
          loader: () => data,
          children: [{ path: "sobre", Component: () => createElement(Fragment, null, createElement(AboutPage), createElement(Footer)) }],
        },
      ]);
      const html = renderToString(createElement(Stub, { initialEntries: ["/sobre"], hydrationData: { loaderData: { root: data } } }));
      expect(html).toContain(PROFILE.name);
      expect(html).toContain(PROFILE.siteName);
      expect(html).toContain(PROFILE.phone);
      expect(html).toContain("tel:+5584988776655");
      // The WhatsApp buttons go through /whatsapp (decision 028), which opens the saved number.
      expect(html).toContain('href="/whatsapp?pagina=sobre"');
      const redirect = await whatsappLoader({ request: new Request("http://localhost:3000/whatsapp?pagina=sobre", { headers: { "User-Agent": "Googlebot/2.1" } }), params: {}, context: {} } as never);
      expect(redirect.headers.get("location")).toBe("https://wa.me/5584988776655");
      expect(html).toContain(PROFILE.address);
      // The portrait in two widths, so a phone does not download the large one.
      const id = portraitUrl.split("/")[2];
      expect(html).toContain(`/media/${id}/400.webp 400w`);
      expect(html).toContain('sizes="(min-width: 768px) 18rem, 14rem"');
      // No Facebook link when it was left empty; Instagram's is there.
      expect(html).toContain(PROFILE.instagramUrl);
      expect(html).not.toContain('aria-label="Facebook"');
      const jsonLd = JSON.parse(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/.exec(html)![1]);
      expect(jsonLd).toMatchObject({ "@type": "RealEstateAgent", name: PROFILE.siteName, telephone: "+5584988776655", employee: { name: PROFILE.name } });

      const tags = aboutMeta({ matches: [{ id: "root", data }] } as never) as Record<string, string>[];
      const tag = (property: string) => tags.find((entry) => entry.property === property)?.content;
      expect(tag("og:title")).toContain(PROFILE.name);
      expect(tag("og:site_name")).toBe(PROFILE.siteName);
      expect(tag("og:image")).toBe(`${data.publicUrl}/media/${id}/og.jpg`);
    });

    it("a change made outside this process's save (SQL, another process) is read after its change event", async () => {
      await post(PROFILE);
      expect((await rootData()).broker.name).toBe(PROFILE.name);
      // Nothing but the change event drops this process's cached profile. The save's own event
      // may still be on its way (PostgreSQL delivers it on the listener's connection), so each
      // settings event is followed by a read, and one of them must see the other process's name;
      // without the drop every read would answer from the cache, and this would time out.
      const fresh = new Promise<string>((resolve) => {
        let last = "";
        const off = test.runtime.live.onChange((table) => {
          if (table !== "settings") return;
          void loadBrokerProfile(test.runtime.db).then(({ name }) => {
            last = name;
            if (name === "Nome de Outro Processo") {
              off();
              resolve(name);
            }
          });
        });
        setTimeout(() => {
          off();
          resolve(last);
        }, 5000);
      });
      const update = sql`update settings set value = jsonb_set(value, '{name}', '"Nome de Outro Processo"') where key = ${SETTING_KEYS.brokerProfile}`;
      if (kind === "postgres") {
        const client = new pg.Client({ connectionString: test.runtime.env.DATABASE_URL });
        await client.connect();
        try {
          await client.query("update settings set value = jsonb_set(value, '{name}', '\"Nome de Outro Processo\"') where key = $1", [SETTING_KEYS.brokerProfile]);
        } finally {
          await client.end();
        }
      } else {
        await test.runtime.db.execute(update);
      }
      expect(await fresh).toBe("Nome de Outro Processo");
    });

    it("saving drops the public page cache (the settings trigger's event)", async () => {
      const cache = new PageCache({ maxBytes: 1024 * 1024 });
      const unsubscribe = await onPublicDataChange(() => cache.invalidate());
      try {
        const body = Buffer.from("<p>página</p>");
        await cache.get("/sobre", "/sobre", async () => ({ entry: { status: 200, headers: [], bodies: { identity: body, br: body, gzip: body }, etag: 'W/"x"', bytes: body.length } }));
        expect(cache.stats().entries).toBe(1);
        const generation = cache.generation;
        expect((await post(PROFILE)).status).toBe(200);
        const started = Date.now();
        while (cache.generation === generation && Date.now() - started < 5_000) await new Promise((resolve) => setTimeout(resolve, 10));
        expect(cache.generation).toBeGreaterThan(generation);
        expect(cache.stats().entries).toBe(0);
      } finally {
        unsubscribe();
      }
    });
  });

  describe("the portrait and the media sweep", () => {
    const ageMedia = (url: string) =>
      test.runtime.db.update(media).set({ created_at: new Date(Date.now() - 3 * 24 * 3600 * 1000) }).where(eq(media.id, url.split("/")[2]));
    const exists = async (url: string) => (await test.runtime.db.select().from(media).where(eq(media.id, url.split("/")[2]))).length === 1;

    it("the sweep keeps the portrait in use, and deletes an old upload nobody uses", async () => {
      await test.runtime.db.delete(settings);
      dropSettingsCache();
      const portrait = await uploadPortrait(test);
      const orphan = await uploadPortrait(test);
      expect((await post({ ...PROFILE, portraitUrl: portrait })).status).toBe(200);
      await ageMedia(portrait);
      await ageMedia(orphan);
      await sweepOrphanMedia(test.runtime);
      expect(await exists(portrait)).toBe(true);
      expect(await exists(orphan)).toBe(false);
      // The file is still served from storage.
      expect(await test.runtime.storage.get(`${portrait.split("/")[2]}/400.webp`)).toBeTruthy();
    });

    it("a replaced portrait is deleted once the new one is saved", async () => {
      const first = await uploadPortrait(test);
      expect((await post({ ...PROFILE, portraitUrl: first })).status).toBe(200);
      const second = await uploadPortrait(test);
      expect((await post({ ...PROFILE, portraitUrl: second })).status).toBe(200);
      expect(await exists(first)).toBe(false);
      expect(await exists(second)).toBe(true);
      expect((await rootData()).broker.portraitUrl).toBe(second);
    });
  });

  describe("notification addresses", () => {
    it("saves one per line (repeats dropped), audited without the addresses", async () => {
      const result = await post({ intent: "notifications", emails: "Alertas@Imoveis.com.br\n\nsocio@imoveis.com.br\nalertas@imoveis.com.br " });
      expect(result.status).toBe(200);
      expect(await loadNotificationEmails(test.runtime.db)).toEqual(["Alertas@Imoveis.com.br", "socio@imoveis.com.br"]);
      const [row] = await test.runtime.db
        .select()
        .from(audit_log)
        .where(and(eq(audit_log.action, "settings.update"), eq(audit_log.entity_id, SETTING_KEYS.notificationEmails)))
        .orderBy(desc(audit_log.at))
        .limit(1);
      expect(JSON.stringify(row.details)).not.toMatch(/imoveis\.com\.br/i);
    });

    it.each([
      ["none", "  \n ", /pelo menos um e-mail/],
      ["six", Array.from({ length: 6 }, (_, i) => `a${i}@teste.com`).join("\n"), /No máximo 5/],
      ["an invalid one", "ok@teste.com\nsem-arroba", /E-mail inválido: sem-arroba/],
    ])("refuses %s and keeps the saved list", async (_, emails, message) => {
      await post({ intent: "notifications", emails: "alertas@imoveis.com.br" });
      const result = await post({ intent: "notifications", emails });
      expect(result.status).toBe(400);
      expect(result.body.message).toMatch(message);
      expect(result.body.errors?.emails).toMatch(message);
      expect(await loadNotificationEmails(test.runtime.db)).toEqual(["alertas@imoveis.com.br"]);
    });
  });

  describe("WhatsApp templates", () => {
    const form = (templates: { id?: string; name: string; body: string }[]) =>
      Object.fromEntries([
        ["intent", "templates"],
        ...templates.flatMap((template, index) => [
          [`templates.${index}.id`, template.id ?? ""],
          [`templates.${index}.name`, template.name],
          [`templates.${index}.body`, template.body],
        ]),
      ]);

    it("adds, edits, reorders and removes; new ones get an id; the audit row counts, without text", async () => {
      await test.runtime.db.delete(settings);
      dropSettingsCache();
      const [first, second] = DEFAULT_WHATSAPP_TEMPLATES;
      const result = await post(
        form([
          { id: second.id, name: "Sobre o imóvel (curto)", body: "Oi {nome}, {link}" },
          { id: first.id, name: first.name, body: first.body },
          { name: "Pós-visita", body: "Olá, {nome}! O que achou do imóvel {imovel}?" },
        ]),
      );
      expect(result.status).toBe(200);
      const saved = await loadWhatsappTemplates(test.runtime.db);
      expect(saved.map((template) => template.name)).toEqual(["Sobre o imóvel (curto)", first.name, "Pós-visita"]);
      expect(saved[2].id).toMatch(/^modelo-[0-9a-f]{8}$/);
      const [row] = await test.runtime.db
        .select()
        .from(audit_log)
        .where(eq(audit_log.entity_id, SETTING_KEYS.whatsappTemplates))
        .orderBy(desc(audit_log.at))
        .limit(1);
      expect(row.details).toEqual({ key: SETTING_KEYS.whatsappTemplates, added: 1, edited: 1, removed: 1 });
    });

    it("an empty list is allowed (the lead page then offers none)", async () => {
      expect((await post({ intent: "templates" })).status).toBe(200);
      expect(await loadWhatsappTemplates(test.runtime.db)).toEqual([]);
    });

    it.each([
      ["a body over 1000 characters", [{ name: "Longo", body: "a".repeat(1001) }], /no máximo 1000/],
      ["a name over 60 characters", [{ name: "n".repeat(61), body: "Oi" }], /no máximo 60/],
      ["an empty body", [{ name: "Vazio", body: "  " }], /Escreva a mensagem/],
      ["an unknown placeholder", [{ name: "Erro", body: "Oi {nomee}" }], /Marcador desconhecido: \{nomee\}/],
      ["eleven templates", Array.from({ length: 11 }, (_, i) => ({ name: `M${i}`, body: "Oi {nome}" })), /No máximo 10/],
      ["a made-up id", [{ id: "<script>", name: "Ok", body: "Oi" }], /formato inválido/],
    ])("refuses %s and keeps the saved templates", async (_, templates, message) => {
      await post(form([{ id: "fixo", name: "Fixo", body: "Olá, {nome}!" }]));
      const result = await post(form(templates));
      expect(result.status).toBe(400);
      expect(result.body.message).toMatch(message);
      expect(await loadWhatsappTemplates(test.runtime.db)).toEqual([{ id: "fixo", name: "Fixo", body: "Olá, {nome}!" }]);
    });
  });

  // Issue 24: the reasons a lead is lost for.
  describe("lost reasons", () => {
    const form = (reasons: string[]) => Object.fromEntries([["intent", "lost-reasons"], ...reasons.map((reason, index) => [`reasons.${index}`, reason])]);

    it("starts with the defaults, saves the admin's list in order, audited by counts; the page loader hands it", async () => {
      await test.runtime.db.delete(settings);
      expect(await loadLostReasons(test.runtime.db)).toEqual(["Preço", "Localização", "Comprou com outro corretor", "Desistiu", "Financiamento negado", "Sem resposta", "Outro"]);
      const result = await post(form(["Sem resposta", "  Preço ", "Vizinhança"]));
      expect(result).toMatchObject({ status: 200, body: { ok: true, message: "Motivos de perda salvos." } });
      expect(await loadLostReasons(test.runtime.db)).toEqual(["Sem resposta", "Preço", "Vizinhança"]);
      const [row] = await test.runtime.db.select().from(audit_log).where(eq(audit_log.entity_id, SETTING_KEYS.lostReasons)).orderBy(desc(audit_log.at)).limit(1);
      expect(row.details).toEqual({ key: SETTING_KEYS.lostReasons, count: 3, added: 1, removed: 5 });
      expect((await post(form(["Sem resposta", "Preço", "Vizinhança"]))).body.message).toBe("Nada mudou: nenhum campo foi alterado.");
      const page = (await settingsLoader({ request: makeRequest("/crm/configuracoes", { cookie: admin.cookie }), params: {}, context } as never)) as { lostReasons: string[] };
      expect(page.lostReasons).toEqual(["Sem resposta", "Preço", "Vizinhança"]);
    });

    it.each([
      ["an empty list", [], "Mantenha pelo menos um motivo de perda"],
      ["a blank reason", ["Preço", "  "], "Escreva o motivo (pelo menos 2 caracteres)"],
      ["a reason over 60 characters", ["m".repeat(61)], "Motivo com no máximo 60 caracteres"],
      ["the same reason twice (case and accents aside)", ["Preço", "preco"], "Motivo repetido: preco"],
      ["21 reasons", Array.from({ length: 21 }, (_, i) => `Motivo ${i}`), "No máximo 20 motivos de perda"],
      ["a control character", ["Pre\u0007ço"], "O motivo contém caracteres inválidos"],
    ])("refuses %s with a 400 and keeps the saved list", async (_, reasons, message) => {
      await post(form(["Fixo A", "Fixo B"]));
      const result = await post(form(reasons));
      expect(result.status).toBe(400);
      expect(result.body.message).toBe(message);
      expect(await loadLostReasons(test.runtime.db)).toEqual(["Fixo A", "Fixo B"]);
    });

    it("a stored list edited by hand into something invalid falls back to the defaults", async () => {
      await test.runtime.db.insert(settings).values({ key: SETTING_KEYS.lostReasons, value: [42] }).onConflictDoUpdate({ target: settings.key, set: { value: [42] } });
      expect(await loadLostReasons(test.runtime.db)).toContain("Financiamento negado");
    });
  });
});
