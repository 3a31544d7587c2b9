import { calendarFeedResponse } from "~/features/visits/downloads.server";
import type { Route } from "./+types/calendar-feed";

/**
 * A staff member's private calendar feed (/calendario/<token>.ics). Calendar apps send no
 * cookie: the token in the file name is the key, and the owner's role is checked on each request.
 */
export async function loader({ params }: Route.LoaderArgs) {
  return calendarFeedResponse(params.file);
}
