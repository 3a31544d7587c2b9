import { describe, expect, it } from "vitest";
import { phone } from "./validation";
import { formatPhoneInput } from "./phone";

describe("phone input shaping", () => {
  it("formats as the visitor types", () => {
    expect(formatPhoneInput("8")).toBe("(8");
    expect(formatPhoneInput("849")).toBe("(84) 9");
    expect(formatPhoneInput("8499999")).toBe("(84) 9999-9");
    expect(formatPhoneInput("8432221234")).toBe("(84) 3222-1234");
    expect(formatPhoneInput("84999998888")).toBe("(84) 99999-8888");
  });

  it("drops the country code and extra digits", () => {
    expect(formatPhoneInput("+55 84 99999-8888")).toBe("(84) 99999-8888");
    expect(formatPhoneInput("849999988881234")).toBe("(84) 99999-8888");
  });

  it("always yields what the spec's pattern accepts once complete", () => {
    for (const typed of ["84999998888", "8432221234", "+5584988887777"]) {
      expect(phone().safeParse(formatPhoneInput(typed)).success).toBe(true);
    }
  });
});
