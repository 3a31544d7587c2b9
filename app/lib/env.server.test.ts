// @vitest-environment node
import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";

describe("configuration", () => {
  it("uses the documented defaults", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.SEED_DEMO).toBe(true);
    expect(env.publicUrl).toBe("http://localhost:3000");
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.dataDir.endsWith("/data")).toBe(true);
  });

  it("treats empty values as not set (a copied .env.example)", () => {
    expect(parseEnv({ DATABASE_URL: "", ADMIN_EMAIL: "" }).DATABASE_URL).toBeUndefined();
  });

  it("names the variable and the problem", () => {
    expect(() => parseEnv({ PORT: "abc" })).toThrow(/PORT: must be a port number/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL: must start with postgres/);
    expect(() => parseEnv({ SEED_DEMO: "talvez" })).toThrow(/SEED_DEMO: use true or false/);
    expect(() => parseEnv({ STORAGE_DRIVER: "s3" })).toThrow(/S3_BUCKET: required when STORAGE_DRIVER=s3/);
    expect(() => parseEnv({ ADMIN_PASSWORD: "segredo1" })).toThrow(/ADMIN_EMAIL: required/);
  });

  it("strips a trailing slash from PUBLIC_URL", () => {
    expect(parseEnv({ PUBLIC_URL: "https://corretor.com.br/" }).publicUrl).toBe("https://corretor.com.br");
  });
});
