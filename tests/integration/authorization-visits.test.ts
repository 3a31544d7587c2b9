import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { calendar_feeds, visits } from "~/db/schema";
import { brokerDay } from "~/lib/format";
import { loader as feedLoader } from "~/routes/calendar-feed";
import { loader as icsLoader } from "~/routes/crm-visit-ics";
import { action as visitsAction, loader as visitsLoader } from "~/routes/crm-visits";
import { ACTORS, type Actor, API_RULE, context, matrixRuntime, type Outcome, outcomeOf, PAGE_RULE } from "../helpers/authorization";
import { createSignedInUser, insertLead, insertProperty, makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";

/**
 * The authorisation matrix for the visits agenda: its loader and every action intent, the .ics
 * download and the calendar feed, for an anonymous visitor, a user without a role, a corretor
 * and an admin, with hand-made form posts and database counts before and after. The feed is the
 * exception: it ignores cookies entirely, only its token counts.
 */

const tomorrowAt = (time: string) => `${brokerDay(new Date(Date.now() + 86_400_000))}T${time}`;

describe.each(DATABASE_KINDS)("visits authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  const { cookieOf } = matrix;
  let leadId: string;
  let propertyId: string;

  beforeAll(async () => {
    leadId = (await insertLead(matrix.runtime)).id;
    propertyId = (await insertProperty(matrix.runtime)).id;
  });

  const counts = async () => {
    const db = matrix.runtime.db;
    const [[v], [f]] = await Promise.all([db.select({ n: count() }).from(visits), db.select({ n: count() }).from(calendar_feeds)]);
    return { visits: v.n, feeds: f.n };
  };
  const newVisit = async () =>
    (await matrix.runtime.db.insert(visits).values({ lead_id: leadId, scheduled_at: new Date(Date.now() + 2 * 86_400_000) }).returning())[0];
  const act = (actor: Actor, form: Record<string, string>) =>
    settle(() => visitsAction({ request: makeRequest("/crm/visitas", { form, cookie: cookieOf(actor) }), params: {}, context } as never));

  for (const search of [
    "",
    "?mostrar=todas",
    "?lead=00000000-0000-4000-8000-000000000000",
    "?opcoes=1&busca_lead=maria",
    "?vista=dia",
    "?vista=semana&data=2027-03-10",
    "?vista=mes&data=2027-03-10",
  ]) {
    it.each(ACTORS)(`loader /crm/visitas${search} for %s`, async (actor) => {
      const result = await settle(() =>
        visitsLoader({ request: makeRequest(`/crm/visitas${search}`, { cookie: cookieOf(actor) }), params: {}, context } as never),
      );
      expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    });
  }

  it.each(ACTORS)("action create (a hand-made form post) for %s", async (actor) => {
    const before = await counts();
    const result = await act(actor, { intent: "create", lead_id: leadId, property_id: propertyId, scheduled_at: tomorrowAt("15:00") });
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    expect((await counts()).visits - before.visits).toBe(PAGE_RULE[actor].kind === "ok" ? 1 : 0);
  });

  it.each(ACTORS)("action update (reschedule) for %s", async (actor) => {
    const target = await newVisit();
    const result = await act(actor, { intent: "update", id: target.id, lead_id: leadId, scheduled_at: tomorrowAt("08:30"), notes: "Nova hora" });
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    const [row] = await matrix.runtime.db.select({ notes: visits.notes }).from(visits).where(eq(visits.id, target.id));
    expect(row.notes).toBe(PAGE_RULE[actor].kind === "ok" ? "Nova hora" : null);
  });

  for (const status of ["realizada", "cancelada"] as const) {
    it.each(ACTORS)(`action status ${status} for %s`, async (actor) => {
      const target = await newVisit();
      const result = await act(actor, { intent: "status", id: target.id, status });
      expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
      const [row] = await matrix.runtime.db.select({ status: visits.status }).from(visits).where(eq(visits.id, target.id));
      expect(row.status).toBe(PAGE_RULE[actor].kind === "ok" ? status : "agendada");
    });
  }

  it.each(ACTORS)("action feed (create my calendar URL) and feed-revoke for %s", async (actor) => {
    const before = await counts();
    const created = await act(actor, { intent: "feed" });
    expect(outcomeOf(created)).toEqual(PAGE_RULE[actor]);
    const allowed = PAGE_RULE[actor].kind === "ok";
    expect((await counts()).feeds - before.feeds).toBe(allowed ? 1 : 0);
    if (allowed) expect((created as { data: { feedUrl?: string } }).data.feedUrl).toMatch(/\/calendario\/.+\.ics$/);

    // Someone else's feed stays: revoke acts only on the caller's own.
    const bystander = await createSignedInUser(matrix.runtime, "corretor");
    await settle(() => visitsAction({ request: makeRequest("/crm/visitas", { form: { intent: "feed" }, cookie: bystander.cookie }), params: {}, context } as never));
    const beforeRevoke = await counts();
    const revoked = await act(actor, { intent: "feed-revoke" });
    expect(outcomeOf(revoked)).toEqual(PAGE_RULE[actor]);
    expect(beforeRevoke.feeds - (await counts()).feeds).toBe(allowed ? 1 : 0);
    const [kept] = await matrix.runtime.db.select().from(calendar_feeds).where(eq(calendar_feeds.user_id, bystander.id));
    expect(kept).toBeDefined();
  });

  it.each(ACTORS)("GET /crm/visitas/:id/ics for %s", async (actor) => {
    const target = await newVisit();
    const result = await settle(() =>
      icsLoader({ request: makeRequest(`/crm/visitas/${target.id}/ics`, { cookie: cookieOf(actor) }), params: { id: target.id }, context } as never),
    );
    expect(outcomeOf(result)).toEqual(API_RULE[actor]);
    if (API_RULE[actor].kind === "ok") expect((result as Response).headers.get("Content-Type")).toMatch(/^text\/calendar/);
  });

  describe("GET /calendario/:file ignores cookies: only the token counts", () => {
    let goodFile: string;
    beforeAll(async () => {
      const owner = await createSignedInUser(matrix.runtime, "corretor");
      const created = (await visitsAction({
        request: makeRequest("/crm/visitas", { form: { intent: "feed" }, cookie: owner.cookie }),
        params: {},
        context,
      } as never)) as unknown as { data: { feedUrl: string } };
      goodFile = created.data.feedUrl.split("/calendario/")[1];
    });
    const feedAs = (actor: Actor, file: string) =>
      settle(() => feedLoader({ request: makeRequest(`/calendario/${file}`, { cookie: cookieOf(actor) }), params: { file }, context } as never));

    it.each(ACTORS)("a good token for %s", async (actor) => {
      expect(outcomeOf(await feedAs(actor, goodFile))).toEqual({ kind: "ok" } satisfies Outcome);
    });
    it.each(ACTORS)("a wrong token for %s (404, never 401)", async (actor) => {
      const wrong = `${"A".repeat(43)}.ics`;
      expect(outcomeOf(await feedAs(actor, wrong))).toEqual({ kind: "status", status: 404 } satisfies Outcome);
    });
  });
});
