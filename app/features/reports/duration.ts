/**
 * A median time as a person says it (issue 21): a lead answered in minutes reads "12 min", not
 * "0 d". Minutes under an hour, hours under a day, days after that; one decimal below ten of a
 * unit, where it still tells something ("1,5 h", "2,5 d").
 */
const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

const oneDecimal = (value: number) => {
  const rounded = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  return String(rounded).replace(".", ",");
};

export function formatDuration(seconds: number | null): string {
  if (seconds === null) return "—";
  const minutes = Math.round(seconds / MINUTE);
  if (minutes < 1) return "< 1 min";
  if (minutes < 60) return `${minutes} min`;
  // 23 h 40 min rounds to a day, not to "24 h".
  if (seconds < DAY - HOUR / 2) return `${oneDecimal(seconds / HOUR)} h`;
  return `${oneDecimal(seconds / DAY)} d`;
}

/** Whole calendar days (a median may be half of one): under a day reads "< 1 d", then as formatDuration. */
export function formatDays(days: number | null): string {
  if (days === null) return "—";
  if (days < 1) return "< 1 d";
  return formatDuration(days * DAY);
}
