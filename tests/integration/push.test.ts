import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { lead_profiles, leads, outbox, proposals, push_events, push_messages, push_subscriptions, settings, visits } from "~/db/schema";
import { anonymizeLeads } from "~/features/privacy/anonymize.server";
import { prunePush } from "~/features/push/housekeeping.server";
import { enqueueNewLeadPush } from "~/features/push/queue.server";
import { runPushSchedule } from "~/features/push/schedule.server";
import { PUSH_MESSAGES } from "~/features/push/schema";
import { acceptedEndpoint, deviceSummary } from "~/features/push/subscriptions.server";
import { loadVapidKeys } from "~/features/push/vapid.server";
import { deliverDuePush, type PushWorker, startPushWorker } from "~/features/push/worker.server";
import { regenerateFeed } from "~/features/visits/calendar.server";
import { openPostgres } from "~/db/client.server";
import { startRuntime, stopRuntime, type Runtime } from "~/runtime.server";
import { loader as feedLoader } from "~/routes/calendar-feed";
import { action as accountAction, loader as accountLoader } from "~/routes/crm-account";
import { action as contactAction } from "~/routes/contact";
import { action as signOutAction } from "~/routes/crm-sign-out";
import { createSignedInUser, insertLead, insertProperty, makeRequest, settle, type TestUser } from "../helpers/factories";
import { browserSubscription, openPush, type BrowserSubscription, startPushService, type TestPushService } from "../helpers/push-service";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * Push alerts and reminders (issue 25) against a real HTTPS push service started here: what it
 * receives is decrypted with the subscription's own keys, as the phone would. Subscriptions go
 * through 'Minha conta''s action; leads through the contact form's action.
 */

let ipCounter = 1;
const context = () => ({ cspNonce: "n", clientIp: `203.0.113.${(ipCounter++ % 250) + 1}` });

describe("push endpoints and devices", () => {
  it("accepts only the browsers' push services (and configured hosts), over https", () => {
    const env = { PUSH_SERVICE_HOSTS: "127.0.0.1" };
    expect(acceptedEndpoint("https://fcm.googleapis.com/fcm/send/abc", env)).toBe(true);
    expect(acceptedEndpoint("https://updates.push.services.mozilla.com/wpush/v2/abc", env)).toBe(true);
    expect(acceptedEndpoint("https://web.push.apple.com/abc", env)).toBe(true);
    expect(acceptedEndpoint("https://wns2-bl2p.notify.windows.com/w/?token=abc", env)).toBe(true);
    expect(acceptedEndpoint("https://127.0.0.1:8443/push/1", env)).toBe(true);
    expect(acceptedEndpoint("http://fcm.googleapis.com/fcm/send/abc", env)).toBe(false);
    expect(acceptedEndpoint("https://fcm.googleapis.com:8443/fcm/send/abc", env)).toBe(false);
    expect(acceptedEndpoint("https://evil.example/fcm.googleapis.com", env)).toBe(false);
    expect(acceptedEndpoint("https://fcm.googleapis.com.evil.example/x", env)).toBe(false);
    expect(acceptedEndpoint("https://127.0.0.1:8443/push/1", { PUSH_SERVICE_HOSTS: undefined })).toBe(false);
  });

  it("summarises a user agent without identifying the machine", () => {
    expect(deviceSummary("Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36")).toBe("Chrome no Android");
    expect(deviceSummary("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")).toBe("Safari no iPhone/iPad");
    expect(deviceSummary("")).toBe("Navegador");
  });
});

describe.each(DATABASE_KINDS)("push alerts on %s", (kind) => {
  let test: TestRuntime;
  let runtime: Runtime;
  let service: TestPushService;
  let staff: TestUser;
  let worker: PushWorker | undefined;

  const account = (cookie: string, form: Record<string, string>) =>
    settle(() => accountAction({ request: makeRequest("/crm/conta", { form, cookie }), params: {}, context: context() } as never));
  const subscribe = async (user: TestUser, device: BrowserSubscription) => {
    const answer = await account(user.cookie, {
      intent: "push-subscribe",
      endpoint: device.endpoint,
      p256dh: device.p256dh,
      auth: device.auth,
      userAgent: "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36",
    });
    expect(answer).toMatchObject({ data: { ok: true } });
  };
  const postContact = (name: string) =>
    contactAction({
      request: makeRequest("/contato", { form: { name, email: "lead@teste.com", phone: "(84) 98888-1234", message: "Quero comprar uma casa em Ponta Negra." } }),
      params: {},
      context: context(),
    } as never);
  const deliver = () => deliverDuePush(runtime, { agent: service.agent });
  const pushesTo = (device: BrowserSubscription) => service.received.filter((push) => push.path === device.path);

  beforeAll(async () => {
    service = await startPushService();
    test = await startTestRuntime(kind, { PUSH_SERVICE_HOSTS: "127.0.0.1" });
    runtime = test.runtime;
    staff = await createSignedInUser(runtime, "corretor");
  });
  afterAll(async () => {
    await worker?.stop();
    await test.stop();
    await service.stop();
  });
  beforeEach(async () => {
    await worker?.stop();
    worker = undefined;
    await runtime.db.delete(push_subscriptions);
    await runtime.db.delete(outbox);
    service.received.length = 0;
  });

  it("a new lead's push reaches the push service within seconds, decrypts to the first name and the lead's URL, and arrives once across a restart", async () => {
    const phone = browserSubscription(service);
    await subscribe(staff, phone);
    // The worker as the server runs it, polling rarely: the contact form's wake() sends the push.
    runtime.push = worker = startPushWorker(runtime, { agent: service.agent, pollMs: 60_000 });

    expect(await postContact("Mariana Sousa Lima")).toMatchObject({ ok: true });
    const [lead] = await runtime.db.select().from(leads).where(eq(leads.full_name, "Mariana Sousa Lima"));
    const push = await service.waitFor((p) => p.path === phone.path, 10_000);
    const payload = openPush(push, phone);
    expect(payload).toEqual({ title: "Novo lead", body: "Mariana chegou pelo formulário de contato.", url: `/crm/leads/${lead.id}`, tag: `lead:${lead.id}` });
    // Nothing else of the person: not the surname, the phone or the e-mail, not even encrypted.
    expect(JSON.stringify(payload)).not.toMatch(/Sousa|Lima|98888|lead@teste/);
    // Signed with our VAPID key; a push service drops it after an hour.
    const keys = await loadVapidKeys(runtime.db, runtime.env);
    expect(String(push.headers.authorization)).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${keys.publicKey}$`));
    expect(push.headers.ttl).toBe("3600");

    // A restart: the worker and the runtime stop, a new one starts on the same database.
    await worker.stop();
    worker = undefined;
    const env = runtime.env;
    await stopRuntime();
    runtime = test.runtime = await startRuntime({ env, firstStartTasks: false, log: () => {} });
    expect(await deliver()).toEqual({ sent: 0, failed: 0, retried: 0, gone: 0 });
    // The same event queued again (a repeated call, another process) pushes nothing.
    expect(await runtime.db.transaction((tx) => enqueueNewLeadPush(tx, { id: lead.id, fullName: lead.full_name, source: "contato" }))).toBe(0);
    expect(await deliver()).toEqual({ sent: 0, failed: 0, retried: 0, gone: 0 });
    expect(pushesTo(phone)).toHaveLength(1);
    const [row] = await runtime.db.select().from(push_subscriptions).where(eq(push_subscriptions.endpoint, phone.endpoint));
    expect(row.last_used_at).not.toBeNull();
  });

  it("a device removed in 'Minha conta' receives nothing more; the others still do", async () => {
    const phone = browserSubscription(service);
    const laptop = browserSubscription(service);
    await subscribe(staff, phone);
    await subscribe(staff, laptop);
    const [phoneRow] = await runtime.db.select().from(push_subscriptions).where(eq(push_subscriptions.endpoint, phone.endpoint));
    const loaded = (await settle(() => accountLoader({ request: makeRequest("/crm/conta", { cookie: staff.cookie }), params: {}, context: context() } as never))) as {
      push: { devices: { id: string; device: string }[] };
    };
    expect(loaded.push.devices.map((d) => d.device)).toEqual(["Chrome no Android", "Chrome no Android"]);

    expect(await account(staff.cookie, { intent: "push-remove", id: phoneRow.id })).toMatchObject({ data: { ok: true, message: PUSH_MESSAGES.removed } });
    // Someone else cannot remove another's device.
    const other = await createSignedInUser(runtime, "corretor");
    const [laptopRow] = await runtime.db.select().from(push_subscriptions).where(eq(push_subscriptions.endpoint, laptop.endpoint));
    expect(await account(other.cookie, { intent: "push-remove", id: laptopRow.id })).toMatchObject({ init: { status: 404 } });

    expect(await postContact("Joana Prado")).toMatchObject({ ok: true });
    expect(await deliver()).toMatchObject({ sent: 1 });
    expect(pushesTo(phone)).toHaveLength(0);
    expect(pushesTo(laptop)).toHaveLength(1);
  });

  it("a 410 from the push service removes the subscription; a kind turned off is not queued", async () => {
    const phone = browserSubscription(service);
    await subscribe(staff, phone);
    service.gone(phone.path);
    await postContact("Carla Nunes");
    expect(await deliver()).toEqual({ sent: 0, failed: 0, retried: 0, gone: 1 });
    expect(await runtime.db.select({ n: count() }).from(push_subscriptions).where(eq(push_subscriptions.endpoint, phone.endpoint))).toEqual([{ n: 0 }]);

    const tablet = browserSubscription(service);
    await subscribe(staff, tablet);
    expect(await account(staff.cookie, { intent: "push-preferences", kinds: "visita_1h" })).toMatchObject({ data: { ok: true } });
    await postContact("Paula Reis");
    const [tabletRow] = await runtime.db.select().from(push_subscriptions).where(eq(push_subscriptions.endpoint, tablet.endpoint));
    expect(await runtime.db.select({ n: count() }).from(push_messages).where(eq(push_messages.subscription_id, tabletRow.id))).toEqual([{ n: 0 }]);
    expect(await deliver()).toEqual({ sent: 0, failed: 0, retried: 0, gone: 0 });
    expect(pushesTo(tablet)).toHaveLength(0);
    await account(staff.cookie, { intent: "push-preferences", kinds: "novo_lead" });
  });

  it("refuses an endpoint outside the push services and bad keys with 400", async () => {
    const device = browserSubscription(service);
    const bad = await account(staff.cookie, { intent: "push-subscribe", endpoint: "https://intranet.example/x", p256dh: device.p256dh, auth: device.auth });
    expect(bad).toMatchObject({ init: { status: 400 }, data: { message: PUSH_MESSAGES.service } });
    const keys = await account(staff.cookie, { intent: "push-subscribe", endpoint: device.endpoint, p256dh: "abc", auth: device.auth });
    expect(keys).toMatchObject({ init: { status: 400 }, data: { message: PUSH_MESSAGES.keys } });
    const kinds = await account(staff.cookie, { intent: "push-preferences", kinds: "tudo" });
    expect(kinds).toMatchObject({ init: { status: 400 }, data: { message: PUSH_MESSAGES.kinds } });
  });

  it("a 'Próximo contato' 2 minutes ahead is pushed (and e-mailed to whoever asked) when its time comes, once per time set", async () => {
    const phone = browserSubscription(service);
    await subscribe(staff, phone);
    await account(staff.cookie, { intent: "push-preferences", kinds: "proximo_contato", reminderEmail: "on" });
    const now = new Date();
    const at = new Date(now.getTime() + 2 * 60_000);
    const lead = await insertLead(runtime, { full_name: "Rita de Cássia Alves", next_contact_at: at });

    expect(await runPushSchedule(runtime, now)).toMatchObject({ reminders: 0 });
    expect(await runPushSchedule(runtime, new Date(at.getTime() - 1000))).toMatchObject({ reminders: 0 });
    expect(await runPushSchedule(runtime, at)).toMatchObject({ reminders: 1, queued: 1, emails: 1 });
    expect(await runPushSchedule(runtime, new Date(at.getTime() + 60_000))).toMatchObject({ reminders: 0, queued: 0 });
    expect(await deliver()).toMatchObject({ sent: 1 });
    const payload = openPush(pushesTo(phone)[0], phone);
    expect(payload).toMatchObject({ title: "Próximo contato", url: `/crm/leads/${lead.id}` });
    expect(String(payload.body)).toMatch(/^Hora de falar com Rita \(\d\d:\d\d\)\.$/);
    const mail = await runtime.db.select().from(outbox).where(and(eq(outbox.kind, "reminder"), eq(outbox.lead_id, lead.id)));
    expect(mail.map((m) => m.to_address)).toEqual([staff.email]);
    expect(mail[0].subject).toBe("Lembrete: próximo contato com Rita");

    // A new time arms it again.
    const later = new Date(at.getTime() + 30 * 60_000);
    await runtime.db.update(leads).set({ next_contact_at: later }).where(eq(leads.id, lead.id));
    expect(await runPushSchedule(runtime, later)).toMatchObject({ reminders: 1, queued: 1 });
    await account(staff.cookie, { intent: "push-preferences", kinds: "novo_lead" });
  });

  it("end to end: the running worker pushes a reminder when its clock reaches it", async () => {
    const phone = browserSubscription(service);
    await subscribe(staff, phone);
    await account(staff.cookie, { intent: "push-preferences", kinds: "proximo_contato" });
    let clock = new Date();
    const lead = await insertLead(runtime, { full_name: "Beatriz Moura", next_contact_at: new Date(clock.getTime() + 2 * 60_000) });
    worker = startPushWorker(runtime, { agent: service.agent, pollMs: 100, scheduleMs: 100, now: () => clock });
    // Two minutes pass on the worker's clock.
    clock = new Date(clock.getTime() + 2 * 60_000);
    const push = await service.waitFor((p) => p.path === phone.path, 10_000);
    expect(openPush(push, phone)).toMatchObject({ title: "Próximo contato", url: `/crm/leads/${lead.id}` });
    await worker.stop();
    worker = undefined;
    expect(pushesTo(phone)).toHaveLength(1);
    await account(staff.cookie, { intent: "push-preferences", kinds: "novo_lead" });
  });

  it("a visit within the hour is announced once", async () => {
    const phone = browserSubscription(service);
    await subscribe(staff, phone);
    await account(staff.cookie, { intent: "push-preferences", kinds: "visita_1h" });
    const now = new Date();
    const lead = await insertLead(runtime, { full_name: "Sofia Ramos" });
    await runtime.db.insert(visits).values({ lead_id: lead.id, scheduled_at: new Date(now.getTime() + 90 * 60_000) });
    expect(await runPushSchedule(runtime, now)).toMatchObject({ visits: 0 });
    expect(await runPushSchedule(runtime, new Date(now.getTime() + 31 * 60_000))).toMatchObject({ visits: 1, queued: 1 });
    expect(await runPushSchedule(runtime, new Date(now.getTime() + 40 * 60_000))).toMatchObject({ visits: 0 });
    await deliver();
    expect(openPush(pushesTo(phone)[0], phone)).toMatchObject({ title: "Visita em 1 hora", url: `/crm/leads/${lead.id}` });
    await account(staff.cookie, { intent: "push-preferences", kinds: "novo_lead" });
  });

  it("an open proposal on its last day is one 'proposta expirando' push, from 9 h (Natal) on", async () => {
    const phone = browserSubscription(service);
    await subscribe(staff, phone);
    await account(staff.cookie, { intent: "push-preferences", kinds: "proposta_expirando" });
    const lead = await insertLead(runtime, { full_name: "Otávio Prado Lima" });
    const listing = await insertProperty(runtime);
    const open = { lead_id: lead.id, property_id: listing.id, kind: "venda" as const, amount_cents: 54_000_000 };
    await runtime.db.insert(proposals).values([
      { ...open, valid_until: "2031-03-10" },
      { ...open, valid_until: "2031-03-11" },
      { ...open, valid_until: "2031-03-10", status: "recusada" },
    ]);
    // 10 March 2031 in Natal (UTC−3): 08:59 is too early, 09:00 sends, later rounds send nothing more.
    expect(await runPushSchedule(runtime, new Date("2031-03-10T11:59:00Z"))).toMatchObject({ proposals: 0 });
    expect(await runPushSchedule(runtime, new Date("2031-03-10T12:00:00Z"))).toMatchObject({ proposals: 1, queued: 1 });
    expect(await runPushSchedule(runtime, new Date("2031-03-10T20:00:00Z"))).toMatchObject({ proposals: 0, queued: 0 });
    await deliver();
    expect(pushesTo(phone).map((push) => openPush(push, phone))).toEqual([
      { title: "Proposta expirando", body: "A proposta de Otávio vence hoje.", url: `/crm/leads/${lead.id}`, tag: expect.stringMatching(/^proposal-expiring:/) },
    ]);
    await account(staff.cookie, { intent: "push-preferences", kinds: "novo_lead" });
  });

  it("a listing published that fits open leads' profiles is one 'match novo' push, naming no lead", async () => {
    const phone = browserSubscription(service);
    await subscribe(staff, phone);
    await account(staff.cookie, { intent: "push-preferences", kinds: "match_novo" });
    const buyer = await insertLead(runtime, { full_name: "Lúcia Fontes" });
    await runtime.db.insert(lead_profiles).values({ lead_id: buyer.id, purpose: "aluguel", price_max: 3000 });
    const listing = await insertProperty(runtime, { purpose: "aluguel", price: 2500, status: "disponivel" });
    const tooDear = await insertProperty(runtime, { purpose: "aluguel", price: 9000, status: "disponivel" });
    const result = await runPushSchedule(runtime, new Date(Date.now() + 1000));
    expect(result).toMatchObject({ matches: 1, queued: 1 });
    expect(await runPushSchedule(runtime, new Date(Date.now() + 2000))).toMatchObject({ matches: 0, queued: 0 });
    await deliver();
    const payloads = pushesTo(phone).map((push) => openPush(push, phone));
    expect(payloads).toEqual([{ title: "Match novo", body: `${listing.codigo}: 1 lead combina com este imóvel.`, url: `/crm/imoveis/${listing.id}/leads`, tag: expect.stringMatching(/^match:/) }]);
    expect(JSON.stringify(payloads)).not.toContain(tooDear.codigo);
    await account(staff.cookie, { intent: "push-preferences", kinds: "novo_lead" });
  });

  it("the calendar feed lists the reminders to come with the first name only", async () => {
    const lead = await insertLead(runtime, { full_name: "Helena Duarte Costa", next_contact_at: new Date(Date.now() + 86_400_000) });
    const token = await regenerateFeed(runtime.db, { id: staff.id, email: staff.email });
    const response = (await feedLoader({ request: makeRequest(`/calendario/${token}.ics`), params: { file: `${token}.ics` }, context: context() } as never)) as Response;
    const text = await response.text();
    expect(text).toContain("SUMMARY:Próximo contato: Helena");
    expect(text).toContain(`http://localhost:3000/crm/leads/${lead.id}`);
    expect(text).not.toMatch(/Duarte|Costa/);
  });

  it("anonymising a lead deletes its pushes, waiting or sent", async () => {
    const phone = browserSubscription(service);
    await subscribe(staff, phone);
    await postContact("Fernanda Anônima");
    const [lead] = await runtime.db.select().from(leads).where(eq(leads.full_name, "Fernanda Anônima"));
    expect(await runtime.db.select({ n: count() }).from(push_messages).where(eq(push_messages.lead_id, lead.id))).toEqual([{ n: 1 }]);
    await anonymizeLeads(runtime.db, { id: staff.id, email: staff.email }, lead.id, [lead.id]);
    expect(await runtime.db.select({ n: count() }).from(push_messages).where(eq(push_messages.lead_id, lead.id))).toEqual([{ n: 0 }]);
    expect(await deliver()).toEqual({ sent: 0, failed: 0, retried: 0, gone: 0 });
  });

  it("housekeeping forgets pushes a week after they went out, and keeps the waiting ones", async () => {
    const phone = browserSubscription(service);
    await subscribe(staff, phone);
    const [sub] = await runtime.db.select().from(push_subscriptions).where(eq(push_subscriptions.endpoint, phone.endpoint));
    const old = new Date(Date.now() - 8 * 86_400_000);
    const base = { subscription_id: sub.id, kind: "novo_lead", title: "Novo lead", body: "Ana chegou.", url: "/crm" };
    await runtime.db.insert(push_messages).values([
      { ...base, event_key: "old-sent", status: "sent", created_at: old },
      { ...base, event_key: "old-pending", status: "pending", created_at: old, next_attempt_at: new Date(Date.now() + 3600_000) },
      { ...base, event_key: "new-sent", status: "sent" },
    ]);
    await prunePush(runtime.db);
    const left = await runtime.db.select({ key: push_messages.event_key }).from(push_messages).where(eq(push_messages.subscription_id, sub.id));
    expect(left.map((row) => row.key).sort()).toEqual(["new-sent", "old-pending"]);
  });

  it("the VAPID private key is stored sealed, and 'Sair' removes the user's devices", async () => {
    const keys = await loadVapidKeys(runtime.db, runtime.env);
    const [row] = await runtime.db.select().from(settings).where(eq(settings.key, "vapid_keys"));
    const stored = row.value as { publicKey: string; privateKey: string };
    expect(stored.publicKey).toBe(keys.publicKey);
    expect(stored.privateKey).toMatch(/^v1\./);
    expect(JSON.stringify(row.value)).not.toContain(keys.privateKey);

    const user = await createSignedInUser(runtime, "corretor");
    await subscribe(user, browserSubscription(service));
    await settle(() => signOutAction({ request: makeRequest("/crm/sair", { form: {}, cookie: user.cookie }), params: {}, context: context() } as never));
    expect(await runtime.db.select({ n: count() }).from(push_subscriptions).where(eq(push_subscriptions.user_id, user.id))).toEqual([{ n: 0 }]);
    expect(await runtime.db.select({ n: count() }).from(push_events)).not.toEqual([{ n: 0 }]);
  });

  it("several processes making the VAPID key pair at once agree on one", async () => {
    await runtime.db.delete(settings).where(eq(settings.key, "vapid_keys"));
    // On PostgreSQL two pools, like two app processes; on PGlite two handles on its one connection.
    const handles = kind === "postgres" ? [await openPostgres(runtime.env.DATABASE_URL!), await openPostgres(runtime.env.DATABASE_URL!)] : [];
    try {
      const dbs = handles.length ? handles.map((h) => h.db) : [Object.create(runtime.db), Object.create(runtime.db)];
      const [a, b] = await Promise.all(dbs.map((db) => loadVapidKeys(db, runtime.env)));
      expect(a.publicKey).toBe(b.publicKey);
      expect(a.privateKey).toBe(b.privateKey);
      const rows = await runtime.db.select().from(settings).where(eq(settings.key, "vapid_keys"));
      expect(rows).toHaveLength(1);
      expect((rows[0].value as { publicKey: string }).publicKey).toBe(a.publicKey);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
  });
});
