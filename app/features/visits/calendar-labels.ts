/** The calendar's views and words that the browser needs too (no server code here). */
export const CALENDAR_VIEWS = ["dia", "semana", "mes"] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];
export const VIEW_PARAM = "vista";
export const DATE_PARAM = "data";
export const CALENDAR_VIEW_LABELS: Record<CalendarView, string> = { dia: "Dia", semana: "Semana", mes: "Mês" };
export const CALENDAR_MESSAGES = {
  badParams: "Visualização ou data inválida. Use vista=dia, semana ou mes e data=AAAA-MM-DD.",
  /** Appended to the save answer: a warning, the visit is saved all the same. */
  clash: (times: string[]) =>
    `Atenção: conflito de horário — a mesma pessoa tem outra visita às ${times.join(", ")} (menos de 1 hora de diferença).`,
} as const;

/** Without a date: the view around today (the server's today, in the broker's zone). */
export const calendarHref = (view: CalendarView, date?: string) => `/crm/visitas?${VIEW_PARAM}=${view}${date ? `&${DATE_PARAM}=${date}` : ""}`;
