import { errorFields, logger } from "~/lib/logger.server";
import { getRuntime } from "~/features/runtime/handle.server";
import { remindersForFeed, visitForCalendar, visitsForFeed } from "./calendar-data.server";
import { calendarText, feedOwner, visitFilename } from "./calendar.server";

/** Calendar answers are about people (names, phones): never kept by a browser or a proxy. */
const PRIVATE = "private, no-store";

function notFound(): Response {
  // no-store here too: the public page cache keeps anonymous 404s, and a feed URL is a secret.
  return new Response("Não encontrado.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": PRIVATE } });
}

function failed(): Response {
  return new Response("Erro interno. Tente novamente.", { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": PRIVATE } });
}

/** GET /crm/visitas/:id/ics (the route checked the role): one visit as a calendar file. */
export async function visitIcsResponse(id: string | undefined): Promise<Response> {
  try {
    const { db, env } = await getRuntime();
    const visit = id ? await visitForCalendar(db, id) : null;
    if (!visit) return notFound();
    return new Response(calendarText([visit], env.publicUrl), {
      headers: {
        "Content-Type": "text/calendar; charset=utf-8",
        "Content-Disposition": `attachment; filename="${visitFilename(visit)}"`,
        "Cache-Control": PRIVATE,
      },
    });
  } catch (error) {
    logger("visits").error({ ...errorFields(error) }, "visit calendar file failed");
    return failed();
  }
}

/**
 * GET /calendario/<token>.ics: the agency's visits, and the 'Próximo contato' reminders to come,
 * for a subscribed calendar. The token is the
 * only key (no cookie counts); a wrong one, or a feed whose owner is no longer staff, is 404, so
 * the answer does not tell a guessed URL from a revoked one. Nothing here logs the file name.
 */
export async function calendarFeedResponse(file: string | undefined): Promise<Response> {
  try {
    const { db, env } = await getRuntime();
    const owner = file ? await feedOwner(db, file) : null;
    if (!owner) return notFound();
    const [visitList, reminders] = await Promise.all([visitsForFeed(db), remindersForFeed(db)]);
    const body = calendarText(visitList, env.publicUrl, "Visitas — CRM", reminders);
    return new Response(body, {
      headers: {
        "Content-Type": "text/calendar; charset=utf-8",
        "Content-Disposition": 'inline; filename="visitas.ics"',
        "Cache-Control": PRIVATE,
        "X-Robots-Tag": "noindex",
      },
    });
  } catch (error) {
    // Answered here rather than thrown: React Router's error log would print the path (the token).
    logger("visits").error({ ...errorFields(error) }, "calendar feed failed");
    return failed();
  }
}
