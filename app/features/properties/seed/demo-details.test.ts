import { describe, expect, it } from "vitest";
import { propertyFormSchema } from "../crm-schema";
import { DEMO_DETAILS } from "./demo-details";
import { DEMO_PROPERTIES } from "./demo-properties";

describe("demo listings (issue 22 details)", () => {
  it("gives details only to demo listings that exist", () => {
    const codes = new Set(DEMO_PROPERTIES.map((demo) => demo.codigo));
    for (const code of Object.keys(DEMO_DETAILS)) expect(codes.has(code), code).toBe(true);
  });

  it("passes the CRM form's rules, details included, and saves them unchanged", () => {
    for (const demo of DEMO_PROPERTIES) {
      const details = DEMO_DETAILS[demo.codigo] ?? {};
      const result = propertyFormSchema.safeParse({ ...demo, status: demo.status ?? "disponivel", state: "RN", images: [], ...details });
      expect(result.error?.issues[0]?.message, demo.codigo).toBeUndefined();
      // Nothing is dropped as "does not apply": each demo is consistent with its type and purpose.
      const same = (value: unknown) => (Array.isArray(value) ? [...value].sort() : value);
      for (const [key, value] of Object.entries(details)) expect(same(result.data?.[key as keyof typeof details]), `${demo.codigo} ${key}`).toEqual(same(value));
    }
  });
});
