import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visits } from "~/db/schema";
import { loadCalendar } from "~/features/visits/calendar-view.server";
import { action as visitsAction, loader as visitsLoader } from "~/routes/crm-visits";
import { context } from "../helpers/authorization";
import { createSignedInUser, insertLead, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * The visits calendar (/crm/visitas?vista=…): which visits and 'Próximo contato' reminders a view
 * holds (cut on the broker's days, UTC−3, not on UTC days) and which visits clash, compared with
 * a query written here on its own.
 */

/** A broker-local time ("2027-03-07T00:00") as an instant. */
const at = (local: string) => new Date(`${local}:00-03:00`);
// Sunday 7 to Saturday 13 March 2027: the week of Wednesday the 10th.
const WEEK = { first: "2027-03-07", last: "2027-03-13" };

describe.each(DATABASE_KINDS)("visits calendar on %s", (kind) => {
  let test: TestRuntime;
  let staff: TestUser;
  const ids: Record<string, string> = {};
  let reminderLead: string;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    staff = await createSignedInUser(test.runtime, "corretor");
    const lead = await insertLead(test.runtime, { full_name: "Ana Calendário" });
    const add = async (name: string, local: string, created_by: string | null, status: "agendada" | "cancelada" = "agendada") => {
      const [row] = await test.runtime.db.insert(visits).values({ lead_id: lead.id, scheduled_at: at(local), created_by, status }).returning();
      ids[name] = row.id;
    };
    await add("dayBefore", "2027-03-06T23:59", staff.id); // 02:59 UTC on the 7th: still the 6th here
    await add("firstMinute", "2027-03-07T00:00", staff.id);
    await add("clashA", "2027-03-09T10:00", staff.id);
    await add("clashB", "2027-03-09T10:30", staff.id);
    await add("otherPerson", "2027-03-09T10:15", "someone-else");
    await add("hourApart1", "2027-03-10T14:00", staff.id);
    await add("hourApart2", "2027-03-10T15:00", staff.id);
    await add("cancelledBetween", "2027-03-10T14:30", staff.id, "cancelada");
    await add("lastMinute", "2027-03-13T23:59", staff.id);
    await add("dayAfter", "2027-03-14T00:00", staff.id);
    reminderLead = (await insertLead(test.runtime, { full_name: "Bruno Lembrete Silva", next_contact_at: at("2027-03-11T09:00") })).id;
    await insertLead(test.runtime, { full_name: "Fora Da Semana", next_contact_at: at("2027-03-14T00:30") });
  });
  afterAll(async () => {
    await test.stop();
  });

  it("a week holds exactly the visits of its broker days, and its reminders", async () => {
    const week = await loadCalendar(test.runtime.db, { view: "semana", date: "2027-03-10" }, at("2027-03-01T12:00"));
    expect(week.days.map((day) => day.day)).toEqual(["2027-03-07", "2027-03-08", "2027-03-09", "2027-03-10", "2027-03-11", "2027-03-12", "2027-03-13"]);
    const shown = week.days.flatMap((day) => day.visits.map((visit) => visit.id)).sort();
    const rows = await test.runtime.db.execute(
      sql`select id from visits where scheduled_at >= ${`${WEEK.first} 00:00:00-03`}::timestamptz and scheduled_at < (${`${WEEK.last} 00:00:00-03`}::timestamptz + interval '1 day') order by id`,
    );
    const expected = ((rows as { rows?: { id: string }[] }).rows ?? (rows as unknown as { id: string }[])).map((row) => row.id).sort();
    expect(shown).toEqual(expected);
    expect(shown).toContain(ids.firstMinute);
    expect(shown).toContain(ids.lastMinute);
    expect(shown).not.toContain(ids.dayBefore);
    expect(shown).not.toContain(ids.dayAfter);
    expect(week.days[0].visits.map((visit) => visit.time)).toEqual(["00:00"]);
    expect(week.days[6].visits.map((visit) => visit.time)).toEqual(["23:59"]);
    expect(week.days.flatMap((day) => day.reminders)).toEqual([
      { leadId: reminderLead, firstName: "Bruno", at: at("2027-03-11T09:00").toISOString(), time: "09:00" },
    ]);
    expect(week.days[4].reminders).toHaveLength(1);
    expect(week).toMatchObject({ title: "Semana de 07/03 a 13/03/2027", prev: "2027-03-03", next: "2027-03-17" });
  });

  it("flags the visits the same person has less than an hour apart, as an SQL query does", async () => {
    const week = await loadCalendar(test.runtime.db, { view: "semana", date: "2027-03-07" }, at("2027-03-01T12:00"));
    const flagged = week.days.flatMap((day) => day.visits.filter((visit) => visit.conflict).map((visit) => visit.id)).sort();
    const rows = await test.runtime.db.execute(sql`
      select v.id from visits v where v.status <> 'cancelada'
        and v.scheduled_at >= ${`${WEEK.first} 00:00:00-03`}::timestamptz and v.scheduled_at < (${`${WEEK.last} 00:00:00-03`}::timestamptz + interval '1 day')
        and exists (
        select 1 from visits o where o.id <> v.id and o.created_by = v.created_by and o.status <> 'cancelada'
          and abs(extract(epoch from (o.scheduled_at - v.scheduled_at))) < 3600)`);
    const expected = ((rows as { rows?: { id: string }[] }).rows ?? (rows as unknown as { id: string }[])).map((row) => row.id).sort();
    expect(flagged).toEqual(expected);
    const names = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
    // A clash across midnight counts too: the first and last minutes of the week have a visit
    // one minute away, on a day the week does not show.
    expect(flagged.map((id) => names[id] ?? id).sort()).toEqual(["clashA", "clashB", "firstMinute", "lastMinute"]);
    expect(week.conflicts).toBe(4);
  });

  it("a month is whole weeks around it; a day is that day", async () => {
    const month = await loadCalendar(test.runtime.db, { view: "mes", date: "2027-03-10" }, at("2027-03-01T12:00"));
    expect(month.days[0].day).toBe("2027-02-28");
    expect(month.days.at(-1)!.day).toBe("2027-04-03");
    expect(month.days.filter((day) => day.inRange)).toHaveLength(31);
    expect(month.title).toBe("Março de 2027");
    const day = await loadCalendar(test.runtime.db, { view: "dia", date: "2027-03-09" }, at("2027-03-01T12:00"));
    expect(day.days).toHaveLength(1);
    expect(day.days[0].visits.map((visit) => visit.time)).toEqual(["10:00", "10:15", "10:30"]);
  });

  it("the loader answers 400 with a message for a bad view or date", async () => {
    for (const search of ["?vista=ano", "?vista=semana&data=2027-02-30", "?vista=dia&data=amanha"]) {
      const thrown = (await Promise.resolve(visitsLoader({ request: makeRequest(`/crm/visitas${search}`, { cookie: staff.cookie }), params: {}, context } as never)).then(
        () => ({}),
        (error: unknown) => error,
      )) as { init?: { status?: number }; data?: string };
      expect(thrown.init?.status).toBe(400);
      expect(thrown.data).toMatch(/Visualização ou data inválida/);
    }
    const ok = (await visitsLoader({ request: makeRequest("/crm/visitas?vista=semana&data=2027-03-10", { cookie: staff.cookie }), params: {}, context } as never)) as {
      calendar: { days: unknown[] } | null;
    };
    expect(ok.calendar?.days).toHaveLength(7);
  });

  it("scheduling into a clash saves the visit and warns", async () => {
    const lead = await insertLead(test.runtime);
    const post = async (scheduled_at: string) =>
      (await visitsAction({
        request: makeRequest("/crm/visitas", { form: { intent: "create", lead_id: lead.id, scheduled_at }, cookie: staff.cookie }),
        params: {},
        context,
      } as never)) as unknown as { data: { ok: boolean; message: string; conflict?: boolean } };
    const clash = await post("2027-03-09T10:45");
    expect(clash.data).toMatchObject({ ok: true, conflict: true });
    expect(clash.data.message).toMatch(/^Visita agendada! Atenção: conflito de horário .* 10:30 /);
    const free = await post("2027-03-12T08:00");
    expect(free.data).toEqual({ ok: true, message: "Visita agendada!" });
  });
});
