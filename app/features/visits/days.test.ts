import { describe, expect, it } from "vitest";
import { dayHeading } from "./days";

describe("dayHeading", () => {
  // 23 Nov 2026, 12:00 UTC = 09:00 in Natal, a Monday.
  const now = new Date("2026-11-23T12:00:00Z");

  it("names yesterday, today and tomorrow, with the weekday and date beside", () => {
    expect(dayHeading("2026-11-22", now)).toEqual({ label: "Ontem", date: "domingo, 22/11/2026" });
    expect(dayHeading("2026-11-23", now)).toEqual({ label: "Hoje", date: "segunda-feira, 23/11/2026" });
    expect(dayHeading("2026-11-24", now)).toEqual({ label: "Amanhã", date: "terça-feira, 24/11/2026" });
  });

  it("names other days by their weekday, capitalised", () => {
    expect(dayHeading("2026-11-25", now)).toEqual({ label: "Quarta-feira", date: "25/11/2026" });
    expect(dayHeading("2026-12-01", now)).toEqual({ label: "Terça-feira", date: "01/12/2026" });
    expect(dayHeading("2026-11-20", now)).toEqual({ label: "Sexta-feira", date: "20/11/2026" });
  });

  it("counts days in the broker's zone: 23:30 in Natal is still the 23rd there", () => {
    const lateEvening = new Date("2026-11-24T02:30:00Z");
    expect(dayHeading("2026-11-23", lateEvening).label).toBe("Hoje");
    expect(dayHeading("2026-11-24", lateEvening).label).toBe("Amanhã");
  });

  it("crosses months and years", () => {
    const newYearsEve = new Date("2026-12-31T15:00:00Z");
    expect(dayHeading("2027-01-01", newYearsEve)).toEqual({ label: "Amanhã", date: "sexta-feira, 01/01/2027" });
  });
});
