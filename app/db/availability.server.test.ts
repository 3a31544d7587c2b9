import { DrizzleQueryError } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable, lowDiskMessage, MIN_FREE_BYTES } from "./availability.server";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["a refused connection", withCode("ECONNREFUSED")],
    ["a reset connection", withCode("ECONNRESET")],
    ["pg's pool timing out", new Error("timeout exceeded when trying to connect")],
    ["pg's connect timeout", new Error("Connection terminated due to connection timeout")],
    ["no answer in time", new Error("Query read timeout")],
    ["a statement cancelled by statement_timeout", withCode("57014", "canceling statement due to statement timeout")],
    ["a server shutting down", withCode("57P01")],
    ["too many connections", withCode("53300")],
    ["a full disk (PostgreSQL or PGlite)", withCode("53100", 'could not extend file "base/5/16947": No space left on device')],
    ["a standby after failover", withCode("25006")],
    ["a closed embedded database", new Error("PGlite is closed")],
    ["either address of localhost refused", Object.assign(new AggregateError([withCode("ECONNREFUSED")]), {})],
    ["drizzle's wrapper around any of these", new DrizzleQueryError("select 1", [], withCode("ECONNREFUSED"))],
  ])("%s: yes", (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation", new DrizzleQueryError("insert …", [], withCode("23505"))],
    ["a syntax error", withCode("42601")],
    ["a bug", new TypeError("Cannot read properties of undefined")],
    ["nothing", undefined],
    ["a string", "ECONNREFUSED"],
  ])("%s: no", (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe("lowDiskMessage", () => {
  it("says where, how much is free and how much is needed, in Portuguese; nothing when there is room", () => {
    const message = lowDiskMessage("/srv/corretor/data", 10 * 1024 * 1024);
    expect(message).toContain("/srv/corretor/data");
    expect(message).toContain("10 MB livres");
    expect(message).toContain(`pelo menos ${MIN_FREE_BYTES / (1024 * 1024)} MB`);
    expect(lowDiskMessage("/srv/corretor/data", MIN_FREE_BYTES)).toBeNull();
  });
});
