import { describe, expect, it } from "vitest";
import { formatDays, formatDuration } from "./duration";

describe("formatDuration (the reports' median times)", () => {
  it("shows minutes under an hour", () => {
    expect(formatDuration(12 * 60)).toBe("12 min");
    expect(formatDuration(60)).toBe("1 min");
    expect(formatDuration(59 * 60 + 20)).toBe("59 min");
  });
  it("says less than a minute rather than zero", () => {
    expect(formatDuration(0)).toBe("< 1 min");
    expect(formatDuration(29)).toBe("< 1 min");
  });
  it("shows hours under a day, with a decimal under ten hours", () => {
    expect(formatDuration(59 * 60 + 40)).toBe("1 h");
    expect(formatDuration(3 * 3600)).toBe("3 h");
    expect(formatDuration(90 * 60)).toBe("1,5 h");
    expect(formatDuration(14 * 3600 + 20 * 60)).toBe("14 h");
    expect(formatDuration(23 * 3600 + 20 * 60)).toBe("23 h");
    expect(formatDuration(23 * 3600 + 50 * 60)).toBe("1 d");
  });
  it("shows days from a day on, with a decimal under ten days", () => {
    expect(formatDuration(24 * 3600)).toBe("1 d");
    expect(formatDuration(2 * 86_400)).toBe("2 d");
    expect(formatDuration(2.5 * 86_400)).toBe("2,5 d");
    expect(formatDuration(45.4 * 86_400)).toBe("45 d");
  });
  it("shows nothing known as a dash", () => {
    expect(formatDuration(null)).toBe("—");
  });
  it("shows whole days (issue 24: first contact to deal) without minutes: the same day is under a day", () => {
    expect(formatDays(0)).toBe("< 1 d");
    expect(formatDays(0.5)).toBe("< 1 d");
    expect(formatDays(1)).toBe("1 d");
    expect(formatDays(10.5)).toBe("11 d");
    expect(formatDays(null)).toBe("—");
  });
});
