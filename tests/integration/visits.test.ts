import crypto from "node:crypto";
import { and, count, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log, calendar_feeds, user, user_roles, visits } from "~/db/schema";
import { brokerDay, toBrokerDateTimeInput } from "~/lib/format";
import { loader as feedLoader } from "~/routes/calendar-feed";
import { loader as icsLoader } from "~/routes/crm-visit-ics";
import { action as visitsAction, loader as visitsLoader } from "~/routes/crm-visits";
import { isCacheable, loggedPath } from "../../server/app";
import { context } from "../helpers/authorization";
import { createSignedInUser, insertLead, insertProperty, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * The visits agenda (/crm/visitas), its .ics files and the private calendar feeds, through the
 * real loaders and actions on a real database.
 */

/** The iCalendar text as events: lines unfolded, values unescaped, one record per VEVENT. */
export function parseIcs(text: string): { calendar: Record<string, string>; events: Record<string, string>[] } {
  const lines = text.replace(/\r\n[ \t]/g, "").replace(/\n[ \t]/g, "").split(/\r?\n/);
  const calendar: Record<string, string> = {};
  const events: Record<string, string>[] = [];
  let current: Record<string, string> | null = null;
  for (const line of lines) {
    if (line === "BEGIN:VEVENT") current = {};
    else if (line === "END:VEVENT") {
      events.push(current!);
      current = null;
    } else {
      const colon = line.indexOf(":");
      if (colon < 0) continue;
      const name = line.slice(0, colon).split(";")[0];
      const value = line.slice(colon + 1).replace(/\\n/gi, "\n").replace(/\\([,;\\])/g, "$1");
      (current ?? calendar)[name] = value;
    }
  }
  return { calendar, events };
}

/** "YYYY-MM-DDTHH:MM" in the broker's zone, `days` from today, at `time`. */
function localInput(days: number, time: string): string {
  return `${brokerDay(new Date(Date.now() + days * 86_400_000))}T${time}`;
}

/** The UTC instant of a broker-local datetime-local value (Fortaleza is UTC−3). */
const utcOf = (local: string) => new Date(`${local}:00-03:00`);

const icsStamp = (date: Date) => date.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");

type Answer = { status: number; body: { ok: boolean; message: string; feedUrl?: string } };

describe.each(DATABASE_KINDS)("visits agenda on %s", (kind) => {
  let test: TestRuntime;
  let staff: TestUser;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    staff = await createSignedInUser(test.runtime, "corretor");
    await test.runtime.db.update(user).set({ name: "Carla Corretora" }).where(eq(user.id, staff.id));
  });
  afterAll(async () => {
    await test.stop();
  });

  const post = async (body: Record<string, unknown>, as: TestUser = staff, json = true): Promise<Answer> => {
    const request = json
      ? new Request("http://localhost:3000/crm/visitas", {
          method: "POST",
          headers: { "Content-Type": "application/json", Cookie: as.cookie, Origin: "http://localhost:3000" },
          body: JSON.stringify(body),
        })
      : makeRequest("/crm/visitas", { form: body as Record<string, string>, cookie: as.cookie });
    const result = (await visitsAction({ request, params: {}, context } as never)) as unknown;
    if (result && typeof result === "object" && "init" in result) {
      const wrapped = result as { data: Answer["body"]; init: { status?: number } | null };
      return { status: wrapped.init?.status ?? 200, body: wrapped.data };
    }
    return { status: 200, body: result as Answer["body"] };
  };

  const load = async (search = "", as: TestUser = staff) =>
    (await visitsLoader({ request: makeRequest(`/crm/visitas${search}`, { cookie: as.cookie }), params: {}, context } as never)) as Awaited<
      ReturnType<typeof visitsLoader>
    >;

  const visitCount = async () => (await test.runtime.db.select({ n: count() }).from(visits))[0].n;
  const latestVisit = async () => (await test.runtime.db.select().from(visits).orderBy(desc(visits.created_at)).limit(1))[0];

  it("schedules a visit, shows it under its day, and records who made it (audit without personal values)", async () => {
    const property = await insertProperty(test.runtime, { title: "Apartamento no Tirol", neighborhood: "Tirol" });
    const lead = await insertLead(test.runtime, { full_name: "Joana Agenda", phone: "(84) 98765-4321" });
    const when = localInput(1, "14:30");
    const answer = await post({ intent: "create", values: { lead_id: lead.id, property_id: property.id, scheduled_at: when, notes: "Levar a chave" } });
    expect(answer).toEqual({ status: 200, body: { ok: true, message: "Visita agendada!" } });

    const row = await latestVisit();
    expect(row.lead_id).toBe(lead.id);
    expect(row.property_id).toBe(property.id);
    expect(new Date(row.scheduled_at).toISOString()).toBe(utcOf(when).toISOString());
    expect(row.status).toBe("agendada");
    expect(row.created_by).toBe(staff.id);
    expect(row.created_by_name).toBe("Carla Corretora");

    const [audit] = await test.runtime.db.select().from(audit_log).where(and(eq(audit_log.action, "visit.create"), eq(audit_log.entity_id, row.id)));
    expect(audit.actor_id).toBe(staff.id);
    expect(JSON.stringify(audit.details ?? {})).not.toMatch(/Joana|98765|chave/);

    const page = await load();
    const day = page.agenda.days.find((group) => group.day === when.slice(0, 10));
    expect(day?.label).toBe("Amanhã");
    const shown = day!.visits.find((visit) => visit.id === row.id)!;
    expect(shown).toMatchObject({
      time: "14:30",
      when_input: when,
      status: "agendada",
      notes: "Levar a chave",
      created_by_name: "Carla Corretora",
      lead: { id: lead.id, full_name: "Joana Agenda", phone: "(84) 98765-4321" },
      property: { id: property.id, codigo: property.codigo, title: "Apartamento no Tirol" },
    });
  });

  it("a plain form post (no JavaScript) schedules too, and today's visits are under 'Hoje'", async () => {
    const lead = await insertLead(test.runtime, { full_name: "Pedro Sem Script" });
    const when = toBrokerDateTimeInput(new Date(Date.now() + 5 * 60_000));
    // Near midnight "in five minutes" is tomorrow: the label follows the day, whichever it is.
    const answer = await post({ intent: "create", lead_id: lead.id, scheduled_at: when }, staff, false);
    expect(answer.status).toBe(200);
    const page = await load();
    const day = page.agenda.days.find((group) => group.day === when.slice(0, 10))!;
    expect(day.label).toBe(when.slice(0, 10) === brokerDay(new Date()) ? "Hoje" : "Amanhã");
    expect(day.visits.some((visit) => visit.lead.full_name === "Pedro Sem Script" && visit.property === null)).toBe(true);
  });

  it("edits and reschedules, then marks done and cancelled; the default list keeps what is still to do", async () => {
    const lead = await insertLead(test.runtime, { full_name: "Rita Remarca" });
    await post({ intent: "create", values: { lead_id: lead.id, scheduled_at: localInput(2, "09:00") } });
    const visit = await latestVisit();

    const later = localInput(3, "16:15");
    const edited = await post({ intent: "update", id: visit.id, values: { lead_id: lead.id, scheduled_at: later, notes: "Remarcada a pedido" } });
    expect(edited).toEqual({ status: 200, body: { ok: true, message: "Visita atualizada!" } });
    const [after] = await test.runtime.db.select().from(visits).where(eq(visits.id, visit.id));
    expect(new Date(after.scheduled_at).toISOString()).toBe(utcOf(later).toISOString());
    expect(after.notes).toBe("Remarcada a pedido");
    const [update] = await test.runtime.db.select().from(audit_log).where(and(eq(audit_log.action, "visit.update"), eq(audit_log.entity_id, visit.id)));
    expect((update.details as { fields: string[] }).fields.sort()).toEqual(["notes", "scheduled_at"]);
    expect(JSON.stringify(update.details)).not.toMatch(/Remarcada|Rita/);

    const done = await post({ intent: "status", id: visit.id, status: "realizada" }, staff, false);
    expect(done).toEqual({ status: 200, body: { ok: true, message: "Visita marcada como realizada." } });
    const ids = (page: Awaited<ReturnType<typeof load>>) => page.agenda.days.flatMap((day) => day.visits.map((item) => item.id));
    expect(ids(await load())).not.toContain(visit.id);
    const all = await load("?mostrar=todas");
    expect(all.agenda.showAll).toBe(true);
    expect(all.agenda.days.flatMap((day) => day.visits).find((item) => item.id === visit.id)?.status).toBe("realizada");

    const cancelled = await post({ intent: "status", id: visit.id, status: "cancelada" });
    expect(cancelled.body.message).toBe("Visita cancelada.");
    const [row] = await test.runtime.db.select({ status: visits.status }).from(visits).where(eq(visits.id, visit.id));
    expect(row.status).toBe("cancelada");
    const reopened = await post({ intent: "status", id: visit.id, status: "agendada" });
    expect(reopened.body.message).toBe("Visita reaberta.");
    expect(ids(await load())).toContain(visit.id);
  });

  it("the full history lists the latest days first, each day in time order", async () => {
    const lead = await insertLead(test.runtime, { full_name: "Ordem Do Dia" });
    for (const time of ["15:00", "09:00"]) await post({ intent: "create", values: { lead_id: lead.id, scheduled_at: localInput(7, time) } });
    await post({ intent: "create", values: { lead_id: lead.id, scheduled_at: localInput(8, "08:00") } });
    const { days } = (await load("?mostrar=todas")).agenda;
    const keys = days.map((day) => day.day);
    expect(keys).toEqual([...keys].sort().reverse());
    const day = days.find((group) => group.day === localInput(7, "00:00").slice(0, 10))!;
    const times = day.visits.map((visit) => visit.time);
    expect(times).toEqual([...times].sort());
    expect(times).toEqual(expect.arrayContaining(["09:00", "15:00"]));
  });

  it("refuses bad input with 400 and a Portuguese message, writing nothing", async () => {
    const lead = await insertLead(test.runtime);
    const good = { lead_id: lead.id, scheduled_at: localInput(1, "10:00") };
    const before = await visitCount();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ intent: "create", values: { ...good, lead_id: "" } }, 400, "Selecione o lead"],
      [{ intent: "create", values: { ...good, lead_id: "nao-e-um-id" } }, 400, "Selecione o lead"],
      [{ intent: "create", values: { ...good, lead_id: crypto.randomUUID() } }, 400, "Lead não encontrado"],
      [{ intent: "create", values: { ...good, property_id: crypto.randomUUID() } }, 400, "Imóvel não encontrado"],
      [{ intent: "create", values: { ...good, property_id: "abc" } }, 400, "Imóvel inválido"],
      [{ intent: "create", values: { ...good, scheduled_at: "" } }, 400, "Informe a data e a hora da visita"],
      [{ intent: "create", values: { ...good, scheduled_at: "2026-02-30T10:00" } }, 400, "Informe a data e a hora da visita"],
      [{ intent: "create", values: { ...good, scheduled_at: "25/12/2026 10:00" } }, 400, "Informe a data e a hora da visita"],
      [{ intent: "create", values: { ...good, scheduled_at: "2062-01-01T10:00" } }, 400, "A data da visita deve estar entre um ano atrás e dois anos à frente"],
      [{ intent: "create", values: { ...good, notes: "x".repeat(1001) } }, 400, "Observações muito longas (máximo de 1000 caracteres)"],
      [{ intent: "create", values: { ...good, notes: "nulo\u0000aqui" } }, 400, "Observações contêm caracteres inválidos"],
      [{ intent: "create", values: { ...good, scheduled_at: ["2026-12-01T10:00"] } }, 400, "Informe a data e a hora da visita"],
      [{ intent: "update", id: crypto.randomUUID(), values: good }, 404, "Visita não encontrada"],
      [{ intent: "status", id: crypto.randomUUID(), status: "realizada" }, 404, "Visita não encontrada"],
      [{ intent: "status", id: "x", status: "feita" }, 400, "Status inválido"],
      [{ intent: "apagar-tudo" }, 400, "Ação desconhecida"],
      [{}, 400, "Ação desconhecida"],
    ];
    for (const [body, status, message] of cases) {
      const answer = await post(body);
      expect({ body, status: answer.status, message: answer.body.message }).toEqual({ body, status, message });
      expect(answer.body.ok).toBe(false);
    }
    // Exactly 1000 characters is fine.
    expect((await post({ intent: "create", values: { ...good, notes: "y".repeat(1000) } })).status).toBe(200);
    expect(await visitCount()).toBe(before + 1);
  });

  it("?lead=<id> prefills the lead and the property the lead booked; the pickers search on the server", async () => {
    const property = await insertProperty(test.runtime, { title: "Casa com piscina em Capim Macio" });
    const lead = await insertLead(test.runtime, {
      full_name: "Lúcia Reservou",
      phone: "(84) 91234-5678",
      property_id: property.id,
      visit_preferences: [{ day: "2030-01-05", period: "manha" }, { day: "2030-01-07" }],
    });
    const page = await load(`?lead=${lead.id}`);
    // The days and periods asked for on the booking form (issue 25), for the dialog to show.
    expect(page.prefill).toEqual({
      lead: { id: lead.id, label: "Lúcia Reservou — (84) 91234-5678", property_id: property.id, preferences: ["Sáb. 05/01/2030 — Manhã", "Seg. 07/01/2030"] },
      property: { id: property.id, label: `${property.codigo} — Casa com piscina em Capim Macio` },
    });
    expect(page.prefillMissing).toBe(false);

    const plain = await insertLead(test.runtime, { full_name: "Sem Imóvel" });
    expect((await load(`?lead=${plain.id}`)).prefill?.property).toBeNull();
    const unknown = await load(`?lead=${crypto.randomUUID()}`);
    expect(unknown.prefill).toBeNull();
    expect(unknown.prefillMissing).toBe(true);
    expect((await load("?lead=%27%3B--")).prefill).toBeNull();

    // Searches find leads beyond the 20 most recent: by name without accents, and by phone digits.
    for (let index = 0; index < 21; index++) await insertLead(test.runtime, { full_name: `Lead Recente ${index}` });
    expect((await load()).leadOptions.map((option) => option.id)).not.toContain(lead.id);
    const byName = await load("?opcoes=1&busca_lead=lucia reser");
    expect(byName.leadOptions.map((option) => option.id)).toEqual([lead.id]);
    expect(byName.agenda.days).toEqual([]);
    expect((await load("?opcoes=1&busca_lead=912345678")).leadOptions.map((option) => option.id)).toEqual([lead.id]);
    expect((await load(`?opcoes=1&busca_imovel=${property.codigo.toLowerCase()}`)).propertyOptions.map((option) => option.id)).toEqual([property.id]);
    expect((await load("?opcoes=1&busca_lead=%25")).leadOptions).toEqual([]);
  });

  it("downloads a visit as .ics: UTC start, one hour, title, place, phone, notes and CRM link", async () => {
    const property = await insertProperty(test.runtime, { title: "Cobertura em Ponta Negra", neighborhood: "Ponta Negra", city: "Natal" });
    const lead = await insertLead(test.runtime, { full_name: "Bruno Calendário", phone: "(84) 99876-5432" });
    const when = localInput(4, "10:45");
    await post({ intent: "create", values: { lead_id: lead.id, property_id: property.id, scheduled_at: when, notes: "Portão azul; tocar duas vezes" } });
    const visit = await latestVisit();

    const response = (await icsLoader({ request: makeRequest(`/crm/visitas/${visit.id}/ics`, { cookie: staff.cookie }), params: { id: visit.id }, context } as never)) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="visita-${when.replace("T", "-").replace(":", "")}.ics"`);
    expect(response.headers.get("Cache-Control")).toMatch(/no-store/);
    const { calendar, events } = parseIcs(await response.text());
    expect(calendar.VERSION).toBe("2.0");
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event.DTSTART).toBe(icsStamp(utcOf(when)));
    expect(event.DTSTART.endsWith("Z")).toBe(true);
    expect(event.DURATION ?? "").toMatch(/^PT(1H|60M)$/);
    expect(event.SUMMARY).toBe("Visita: Cobertura em Ponta Negra — Bruno Calendário");
    expect(event.LOCATION).toBe("Ponta Negra, Natal");
    expect(event.DESCRIPTION).toContain("Telefone: (84) 99876-5432");
    expect(event.DESCRIPTION).toContain("Observações: Portão azul; tocar duas vezes");
    expect(event.DESCRIPTION).toContain(`http://localhost:3000/crm/leads/${lead.id}`);
    expect(event.UID).toBe(`visita-${visit.id}@localhost`);
    expect(event.STATUS).toBe("CONFIRMED");

    for (const id of [crypto.randomUUID(), "nao-existe"]) {
      const missing = (await icsLoader({ request: makeRequest(`/crm/visitas/${id}/ics`, { cookie: staff.cookie }), params: { id }, context } as never)) as Response;
      expect(missing.status).toBe(404);
    }
  });

  describe("the private calendar feed", () => {
    const feed = async (file: string, cookie?: string) =>
      (await feedLoader({ request: makeRequest(`/calendario/${file}`, { cookie }), params: { file }, context } as never)) as Response;
    const fileOf = (url: string) => url.split("/calendario/")[1];

    it("serves the agency's visits (not cancelled, from 30 days ago on) to a good token, with stable UIDs", async () => {
      const owner = await createSignedInUser(test.runtime, "corretor");
      const created = await post({ intent: "feed" }, owner);
      expect(created.status).toBe(200);
      expect(created.body.message).toMatch(/Copie-o agora/);
      const url = created.body.feedUrl!;
      expect(url).toMatch(/^http:\/\/localhost:3000\/calendario\/[A-Za-z0-9_-]{43}\.ics$/);
      const token = fileOf(url).replace(/\.ics$/, "");

      // Only the token's hash is kept.
      const [stored] = await test.runtime.db.select().from(calendar_feeds).where(eq(calendar_feeds.user_id, owner.id));
      expect(stored.token_hash).toBe(crypto.createHash("sha256").update(token).digest("hex"));
      expect(JSON.stringify(stored)).not.toContain(token);
      expect((await load("", owner)).feed.active).toBe(true);
      const [audit] = await test.runtime.db.select().from(audit_log).where(and(eq(audit_log.action, "calendar_feed.create"), eq(audit_log.actor_id, owner.id)));
      expect(JSON.stringify(audit)).not.toContain(token);

      // Visits by another staff member appear too (one small agency).
      const lead = await insertLead(test.runtime, { full_name: "Feed Visível" });
      await post({ intent: "create", values: { lead_id: lead.id, scheduled_at: localInput(5, "11:00") } });
      const shown = await latestVisit();
      await post({ intent: "create", values: { lead_id: lead.id, scheduled_at: localInput(6, "11:00") } });
      const cancelled = await latestVisit();
      await post({ intent: "status", id: cancelled.id, status: "cancelada" });
      const [recent] = await test.runtime.db.insert(visits).values({ lead_id: lead.id, scheduled_at: new Date(Date.now() - 10 * 86_400_000), status: "realizada" }).returning();
      const [old] = await test.runtime.db.insert(visits).values({ lead_id: lead.id, scheduled_at: new Date(Date.now() - 40 * 86_400_000) }).returning();

      const response = await feed(fileOf(url));
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
      expect(response.headers.get("Cache-Control")).toMatch(/no-store/);
      const text = await response.text();
      const { calendar, events } = parseIcs(text);
      expect(text.startsWith("BEGIN:VCALENDAR")).toBe(true);
      expect(calendar["X-WR-CALNAME"]).toBe("Visitas — CRM");
      const uids = events.map((event) => event.UID);
      expect(uids).toContain(`visita-${shown.id}@localhost`);
      expect(uids).toContain(`visita-${recent.id}@localhost`);
      expect(uids).not.toContain(`visita-${cancelled.id}@localhost`);
      expect(uids).not.toContain(`visita-${old.id}@localhost`);
      expect(new Set(uids).size).toBe(uids.length);
      const event = events.find((item) => item.UID === `visita-${shown.id}@localhost`)!;
      expect(event.SUMMARY).toBe("Visita: imóvel a definir — Feed Visível");
      expect(event.DTSTART).toBe(icsStamp(utcOf(localInput(5, "11:00"))));

      // The same UID on the next fetch and in the single-visit file: calendars update, not duplicate.
      expect(parseIcs(await (await feed(fileOf(url))).text()).events.map((item) => item.UID)).toEqual(uids);
      const single = (await icsLoader({ request: makeRequest(`/crm/visitas/${shown.id}/ics`, { cookie: staff.cookie }), params: { id: shown.id }, context } as never)) as Response;
      expect(parseIcs(await single.text()).events[0].UID).toBe(event.UID);
    });

    it("a wrong or malformed token is 404, and regenerating turns the old URL off", async () => {
      const owner = await createSignedInUser(test.runtime, "admin");
      const first = fileOf((await post({ intent: "feed" }, owner)).body.feedUrl!);
      expect((await feed(first)).status).toBe(200);
      const second = fileOf((await post({ intent: "feed" }, owner)).body.feedUrl!);
      expect(second).not.toBe(first);
      expect((await feed(first)).status).toBe(404);
      expect((await feed(second)).status).toBe(200);
      const rows = await test.runtime.db.select().from(calendar_feeds).where(eq(calendar_feeds.user_id, owner.id));
      expect(rows).toHaveLength(1);

      const wrong = `${crypto.randomBytes(32).toString("base64url")}.ics`;
      for (const file of [wrong, second.replace(".ics", ""), `${second}x`, "..%2F..%2Fetc.ics", ""]) {
        const response = await feed(file);
        expect(response.status).toBe(404);
        expect(response.headers.get("Cache-Control")).toMatch(/no-store/);
      }

      const revoked = await post({ intent: "feed-revoke" }, owner);
      expect(revoked.body).toEqual({ ok: true, message: "Endereço da agenda desativado." });
      expect((await feed(second)).status).toBe(404);
    });

    it("stops when the owner loses the staff role or is deleted, and starts again with the role", async () => {
      const owner = await createSignedInUser(test.runtime, "corretor");
      const file = fileOf((await post({ intent: "feed" }, owner)).body.feedUrl!);
      expect((await feed(file)).status).toBe(200);
      await test.runtime.db.delete(user_roles).where(eq(user_roles.user_id, owner.id));
      expect((await feed(file)).status).toBe(404);
      await test.runtime.db.insert(user_roles).values({ user_id: owner.id, role: "corretor" });
      expect((await feed(file)).status).toBe(200);
      await test.runtime.db.delete(user).where(eq(user.id, owner.id));
      expect((await feed(file)).status).toBe(404);
    });
  });

  it("the request log never shows a feed's token, and the page cache never keeps a feed", () => {
    expect(loggedPath("/calendario/abcDEF_123-xyz.ics")).toBe("/calendario/[token]");
    expect(loggedPath("/feeds/vrsync/abcDEF_123-xyz0123.xml")).toBe("/feeds/vrsync/[token]");
    expect(loggedPath("/crm/visitas")).toBe("/crm/visitas");
    expect(isCacheable("GET", "/calendario/abc.ics", undefined)).toBe(false);
  });
});
