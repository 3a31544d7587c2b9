import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type leads, visits } from "~/db/schema";
import { getWorkingDay } from "~/features/dashboard/working-day.server";
import { loader as dashboardLoader } from "~/routes/crm-dashboard";
import { createSignedInUser, insertLead, insertProperty, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * The dashboard's working-day lists on seeded data with known dates. "Now" is 23:30 on
 * 23/11/2026 in Natal (UTC−3), which is already 02:30 on the 24th in UTC: the edge where a day
 * computed in the server's zone would wrongly count tomorrow's contacts as today's.
 */

const context = { cspNonce: "n", clientIp: "192.0.2.30" };
const NOW = new Date("2026-11-24T02:30:00Z"); // 23/11 23:30 in Natal
const at = (iso: string) => new Date(iso);

describe.each(DATABASE_KINDS)("dashboard working-day lists on %s", (kind) => {
  let test: TestRuntime;
  let staff: TestUser;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    staff = await createSignedInUser(test.runtime, "corretor");
    const lead = async (key: string, values: Partial<typeof leads.$inferInsert>) => {
      ids[key] = (await insertLead(test.runtime, { full_name: `Lead ${key}`, ...values })).id;
    };
    // 'Para hoje': every one attended already, created a minute apart an hour or so before "now".
    const attended = (minute: number) => ({ status: "em_atendimento" as const, created_at: at(`2026-11-24T01:0${minute}:00Z`) });
    await lead("overdue", { ...attended(0), next_contact_at: at("2026-11-20T12:00:00Z") });
    await lead("tonight", { ...attended(1), next_contact_at: at("2026-11-24T02:50:00Z") }); // 23:50 on the 23rd in Natal
    await lead("afterMidnight", { ...attended(2), next_contact_at: at("2026-11-24T03:10:00Z") }); // 00:10 on the 24th
    await lead("tomorrowMorning", { ...attended(3), next_contact_at: at("2026-11-24T13:00:00Z") }); // 10:00 on the 24th (UTC's "today")
    await lead("noContact", { ...attended(4), next_contact_at: null });
    // 'Sem atendimento há mais de 24 h': novo and created before 02:30 UTC on the 23rd.
    await lead("waitingLongest", { status: "novo", created_at: at("2026-11-22T10:00:00Z") });
    await lead("waiting25h", { status: "novo", created_at: at("2026-11-23T01:30:00Z") });
    await lead("waiting23h", { status: "novo", created_at: at("2026-11-23T03:30:00Z") });
    await lead("oldButAttended", { status: "em_atendimento", created_at: at("2026-11-01T12:00:00Z") });
    await lead("oldButLost", { status: "perdido", created_at: at("2026-10-01T12:00:00Z") });
    await lead("newest", { status: "novo", created_at: at("2026-11-24T02:20:00Z"), email: "nao-vaza@teste.com", notes: "Mensagem pessoal" });

    const casa = await insertProperty(test.runtime, { codigo: "DASH-1", title: "Casa do dashboard" });
    const visit = (lead: string, scheduled: string, status: "agendada" | "realizada" | "cancelada" = "agendada", withProperty = true) =>
      test.runtime.db
        .insert(visits)
        .values({ lead_id: ids[lead], property_id: withProperty ? casa.id : null, scheduled_at: at(scheduled), status })
        .returning({ id: visits.id })
        .then(([row]) => row.id);
    ids.visitPast = await visit("tonight", "2026-11-24T02:00:00Z"); // 23:00 tonight: already past
    ids.visitNow = await visit("overdue", "2026-11-24T02:30:00Z"); // exactly now: still ahead
    ids.visitCancelled = await visit("tonight", "2026-11-24T15:00:00Z", "cancelada");
    ids.visitDone = await visit("tonight", "2026-11-25T15:00:00Z", "realizada");
    ids.visitNoProperty = await visit("waiting25h", "2026-11-24T13:00:00Z", "agendada", false);
    for (let day = 26; day <= 30; day += 1) ids[`visit${day}`] = await visit("newest", `2026-11-${day}T12:00:00Z`);
  });

  afterAll(async () => {
    await test.stop();
  });

  it("'Para hoje' holds the overdue contacts and today's until 23:59 in Natal, soonest first — not tomorrow's", async () => {
    const day = await getWorkingDay(test.runtime.db, NOW);
    expect(day.dueToday.items.map((lead) => lead.id)).toEqual([ids.overdue, ids.tonight]);
    expect(day.dueToday.total).toBe(2);
  });

  it("a minute after midnight in Natal, the contacts of the new day are due and the 00:10 one is", async () => {
    const day = await getWorkingDay(test.runtime.db, at("2026-11-24T03:01:00Z"));
    expect(day.dueToday.items.map((lead) => lead.id)).toEqual([ids.overdue, ids.tonight, ids.afterMidnight, ids.tomorrowMorning]);
  });

  it("'Sem atendimento' holds the leads still 'novo' more than 24 h after arriving, the longest waiting first", async () => {
    const day = await getWorkingDay(test.runtime.db, NOW);
    expect(day.unattended.items.map((lead) => lead.id)).toEqual([ids.waitingLongest, ids.waiting25h]);
    expect(day.unattended.total).toBe(2);
  });

  it("'Próximas visitas' holds scheduled visits from now on, soonest first, five of them, with lead and property", async () => {
    const day = await getWorkingDay(test.runtime.db, NOW);
    expect(day.nextVisits.total).toBe(7);
    expect(day.nextVisits.items.map((visit) => visit.id)).toEqual([ids.visitNow, ids.visitNoProperty, ids.visit26, ids.visit27, ids.visit28]);
    expect(day.nextVisits.items[0]).toMatchObject({
      lead: { id: ids.overdue, full_name: "Lead overdue" },
      property: { codigo: "DASH-1", title: "Casa do dashboard" },
      scheduled_at: "2026-11-24T02:30:00.000Z",
    });
    expect(day.nextVisits.items[1].property).toBeNull();
  });

  it("'Últimos leads' holds the five newest leads, newest first", async () => {
    const day = await getWorkingDay(test.runtime.db, NOW);
    expect(day.latestLeads.map((lead) => lead.id)).toEqual([ids.newest, ids.noContact, ids.tomorrowMorning, ids.afterMidnight, ids.tonight]);
  });

  it("with 'now' long before every date, nothing is due or waiting, and every scheduled visit is ahead", async () => {
    const day = await getWorkingDay(test.runtime.db, at("2020-01-01T12:00:00Z"));
    expect(day.dueToday).toEqual({ total: 0, items: [] });
    expect(day.unattended).toEqual({ total: 0, items: [] });
    expect(day.nextVisits.total).toBe(8);
    expect(day.nextVisits.items.map((visit) => visit.id)).toEqual([ids.visitPast, ids.visitNow, ids.visitNoProperty, ids.visit26, ids.visit27]);
  });

  it("the loader hands the lists to staff without a lead's e-mail or message", async () => {
    const data = await dashboardLoader({ request: makeRequest("/crm", { cookie: staff.cookie }), params: {}, context } as never);
    expect(data.day.latestLeads[0].id).toBe(ids.newest);
    expect(Date.parse(data.now)).not.toBeNaN();
    const text = JSON.stringify(data);
    expect(text).not.toContain("nao-vaza@teste.com");
    expect(text).not.toContain("Mensagem pessoal");
  });
});
