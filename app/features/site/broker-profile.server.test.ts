// @vitest-environment node
import { describe, expect, it } from "vitest";
import { parseBrokerProfile } from "./broker-profile.server";

describe("broker profile", () => {
  it("has placeholder defaults", () => {
    const profile = parseBrokerProfile({});
    expect(profile.name).toMatch(/Exemplo/);
    expect(profile.whatsapp).toMatch(/^\d+$/);
  });

  it("takes each value from its variable and checks it", () => {
    expect(parseBrokerProfile({ BROKER_NAME: "Joana Lima" }).name).toBe("Joana Lima");
    expect(() => parseBrokerProfile({ BROKER_WHATSAPP: "(84) 9999" })).toThrow(/BROKER_WHATSAPP/);
  });
});
