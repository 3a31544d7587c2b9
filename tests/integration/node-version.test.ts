import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script, shared by `npm start` and `npm test`
import { unsupportedNodeMessage } from "../../scripts/node-version.mjs";

describe("the supported Node (issue 21, item 15)", () => {
  it("refuses Node 20 and early 24 with a message that says what to do", () => {
    expect(unsupportedNodeMessage("20.20.2")).toMatch(/Node 20\.20\.2 is not supported: .*Node 24\.11 or newer.*npm install/);
    expect(unsupportedNodeMessage("24.10.0")).toMatch(/not supported/);
  });

  it("accepts Node 24.11 and later majors", () => {
    expect(unsupportedNodeMessage("24.11.0")).toBeNull();
    expect(unsupportedNodeMessage("24.21.0")).toBeNull();
    expect(unsupportedNodeMessage("26.0.0")).toBeNull();
  });

  it("the tests themselves run on the Node that npm install brings", () => {
    expect(unsupportedNodeMessage(process.versions.node)).toBeNull();
  });
});
