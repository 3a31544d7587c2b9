import { describe, expect, it } from "vitest";
import { formatRelative } from "./relative-time";

const now = new Date("2026-11-23T15:00:00Z");
const at = (offsetSeconds: number) => new Date(now.getTime() + offsetSeconds * 1000);

describe("formatRelative", () => {
  it("says how long ago, in whole units, never rounding up", () => {
    expect(formatRelative(at(-30), now)).toBe("agora");
    expect(formatRelative(at(-59 * 60), now)).toBe("há 59 minutos");
    expect(formatRelative(at(-3600), now)).toBe("há 1 hora");
    expect(formatRelative(at(-47 * 3600), now)).toBe("há 1 dia");
    expect(formatRelative(at(-2 * 86_400), now)).toBe("há 2 dias");
    expect(formatRelative(at(-8 * 86_400), now)).toBe("há 1 semana");
    expect(formatRelative(at(-400 * 86_400), now)).toBe("há 1 ano");
  });

  it("says how soon, for a date still ahead", () => {
    expect(formatRelative(at(3 * 3600), now)).toBe("em 3 horas");
    expect(formatRelative(at(2 * 86_400), now)).toBe("em 2 dias");
  });

  it("accepts ISO strings, as loaders send them", () => {
    expect(formatRelative(at(-2 * 86_400).toISOString(), now.toISOString())).toBe("há 2 dias");
  });
});
