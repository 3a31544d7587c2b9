// @vitest-environment node
import { describe, expect, it } from "vitest";
import { parseEnv, webConcurrency } from "./env.server";

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
    expect(() => parseEnv({ UNCONFIRMED_ACCOUNT_DAYS: "0" })).toThrow(/UNCONFIRMED_ACCOUNT_DAYS: must be at least 1/);
    expect(() => parseEnv({ UNCONFIRMED_ACCOUNT_DAYS: "uma semana" })).toThrow(/UNCONFIRMED_ACCOUNT_DAYS: must be a number of days/);
    expect(parseEnv({}).UNCONFIRMED_ACCOUNT_DAYS).toBe(7);
  });

  it("strips a trailing slash from PUBLIC_URL", () => {
    expect(parseEnv({ PUBLIC_URL: "https://corretor.com.br/" }).publicUrl).toBe("https://corretor.com.br");
  });
});

describe("WEB_CONCURRENCY", () => {
  it("defaults to every core on PostgreSQL and to one process on the embedded database", () => {
    expect(webConcurrency(parseEnv({ DATABASE_URL: "postgres://localhost/x" }), 4)).toBe(4);
    expect(webConcurrency(parseEnv({}), 4)).toBe(1);
    expect(webConcurrency(parseEnv({ DATABASE_URL: "postgres://localhost/x", WEB_CONCURRENCY: "3" }), 4)).toBe(3);
    expect(webConcurrency(parseEnv({ WEB_CONCURRENCY: "1" }), 4)).toBe(1);
  });

  it("refuses workers on the embedded database and nonsense values", () => {
    expect(() => parseEnv({ WEB_CONCURRENCY: "2" })).toThrow(/WEB_CONCURRENCY: more than 1 needs DATABASE_URL/);
    expect(() => parseEnv({ WEB_CONCURRENCY: "0" })).toThrow(/WEB_CONCURRENCY: must be at least 1/);
    expect(() => parseEnv({ WEB_CONCURRENCY: "muitos" })).toThrow(/WEB_CONCURRENCY: must be a number/);
  });
});

describe("TRUSTED_PROXIES", () => {
  it("defaults to this machine (loopback), and takes addresses and CIDR ranges, IPv4 and IPv6", () => {
    expect(parseEnv({}).TRUSTED_PROXIES).toEqual(["127.0.0.1/8", "::1"]);
    expect(parseEnv({ TRUSTED_PROXIES: " 10.0.0.5, 172.16.0.0/12 ,fd00::/8,::1 " }).TRUSTED_PROXIES).toEqual(["10.0.0.5", "172.16.0.0/12", "fd00::/8", "::1"]);
  });

  it("stops the process with the variable's name and the entry that is wrong", () => {
    expect(() => parseEnv({ TRUSTED_PROXIES: "10.0.0.300" })).toThrow(/TRUSTED_PROXIES: "10.0.0.300" is not an IP address or a CIDR range/);
    expect(() => parseEnv({ TRUSTED_PROXIES: "127.0.0.1,proxy.local" })).toThrow(/TRUSTED_PROXIES: "proxy.local" is not/);
    expect(() => parseEnv({ TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/TRUSTED_PROXIES: "10.0.0.0\/33" is not/);
    expect(() => parseEnv({ TRUSTED_PROXIES: "::1/129" })).toThrow(/TRUSTED_PROXIES: "::1\/129" is not/);
    expect(() => parseEnv({ TRUSTED_PROXIES: "10.0.0.0/8/1" })).toThrow(/TRUSTED_PROXIES: "10.0.0.0\/8\/1" is not/);
    expect(() => parseEnv({ TRUSTED_PROXIES: "10.0.0.0/x" })).toThrow(/TRUSTED_PROXIES: "10.0.0.0\/x" is not/);
    expect(() => parseEnv({ TRUSTED_PROXIES: " , " })).toThrow(/TRUSTED_PROXIES: list at least one address/);
  });
});
