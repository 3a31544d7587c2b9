import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

/**
 * The Nu HTML checker (vnu-jar, the W3C validator's engine) on the HTML the server sends for
 * every public page: 0 errors. It runs on Java (Debian: default-jre-headless, installed by
 * .ci/run); without Java this test fails and says so instead of skipping.
 */
const vnuJar = createRequire(import.meta.url)("vnu-jar") as string;

type NuMessage = { type: string; subType?: string; url: string; lastLine?: number; message: string; extract?: string };

test("every public page is valid HTML (Nu checker)", async ({ request }) => {
  const java = spawnSync("java", ["-version"], { encoding: "utf8" });
  expect(java.error, "Java is missing: the Nu HTML checker needs it (apt-get install default-jre-headless)").toBeUndefined();

  const list = await (await request.get("/imoveis")).text();
  const detail = /href="(\/imoveis\/[0-9a-f-]{36})"/.exec(list)![1];
  const pages = ["/", "/imoveis", detail, "/imoveis/bairros", "/imoveis/bairro/ponta-negra", "/sobre", "/contato", "/agendar-visita", "/privacidade", "/favoritos", "/alertas", "/auth", "/pagina-que-nao-existe"];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nu-"));
  const files = new Map<string, string>();
  try {
    for (const pagePath of pages) {
      const response = await request.get(pagePath);
      expect(response.status(), pagePath).toBe(pagePath === "/pagina-que-nao-existe" ? 404 : 200);
      const file = path.join(dir, `${files.size}.html`);
      fs.writeFileSync(file, await response.text());
      files.set(`file:${file}`, pagePath);
    }
    // One JVM for all pages; vnu exits 1 when it finds errors, the JSON says which.
    let output: string;
    try {
      output = execFileSync("java", ["-jar", vnuJar, "--format", "json", "--stdout", ...[...files.keys()].map((url) => url.slice(5))], {
        encoding: "utf8",
        maxBuffer: 32 * 1024 * 1024,
      });
    } catch (error) {
      output = (error as { stdout?: string }).stdout ?? "";
      if (!output) throw error;
    }
    const messages = (JSON.parse(output) as { messages: NuMessage[] }).messages;
    const errors = messages
      // "non-document-error": a page the checker could not read, which must not pass as valid.
      .filter((message) => message.type === "error" || message.type === "non-document-error")
      .map((message) => `${files.get(message.url) ?? message.url}:${message.lastLine ?? "?"} ${message.message}  «${message.extract?.trim() ?? ""}»`);
    expect(errors, errors.join("\n")).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
