import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as cepLoader } from "~/routes/crm-cep";
import { ACTORS, type Actor, API_RULE, context, outcomeOf } from "../helpers/authorization";
import { createSignedInUser, makeRequest, settle, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * /crm/cep/:cep (issue 22, item 4): staff only (the authorisation matrix's API rule), the CEP
 * checked before any call, and the outside service — here a local one that answers as ViaCEP
 * does — asked only when CEP_LOOKUP_URL is set. Nothing here reaches the internet.
 */

describe.each(DATABASE_KINDS)("CEP lookup on %s", (kind) => {
  let test: TestRuntime;
  let service: http.Server;
  const calls: string[] = [];
  const users: Partial<Record<Actor, TestUser>> = {};

  beforeAll(async () => {
    service = http.createServer((request, response) => {
      calls.push(request.url ?? "");
      const cep = /\/ws\/(\d{8})\/json/.exec(request.url ?? "")?.[1];
      if (cep === "59090000") {
        response.setHeader("Content-Type", "application/json");
        response.end(JSON.stringify({ cep: "59090-000", logradouro: "Avenida Engenheiro Roberto Freire", bairro: "Ponta Negra", localidade: "Natal", uf: "RN" }));
      } else if (cep === "59999999") {
        response.statusCode = 500;
        response.end("boom");
      } else if (cep === "59888888") {
        // Never answers: the route gives up on its own.
      } else {
        response.setHeader("Content-Type", "application/json");
        response.end(JSON.stringify({ erro: "true" }));
      }
    });
    await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
    const { port } = service.address() as AddressInfo;
    test = await startTestRuntime(kind, { CEP_LOOKUP_URL: `http://127.0.0.1:${port}/ws/{cep}/json/` });
    users.noRole = await createSignedInUser(test.runtime, null);
    users.corretor = await createSignedInUser(test.runtime, "corretor");
    users.admin = await createSignedInUser(test.runtime, "admin");
  });
  afterAll(async () => {
    await test.stop();
    service.closeAllConnections();
    await new Promise((resolve) => service.close(resolve));
  });

  const ask = (cep: string, actor: Actor = "corretor") =>
    settle(() => cepLoader({ request: makeRequest(`/crm/cep/${cep}`, { cookie: users[actor]?.cookie }), params: { cep }, context } as never));
  const body = (result: unknown) => (result as { data: Record<string, string> }).data;
  const status = (result: unknown) => (result as { init: { status?: number } | null }).init?.status ?? 200;

  it.each(ACTORS)("loader /crm/cep/59090-000 for %s", async (actor) => {
    const before = calls.length;
    const result = await ask("59090-000", actor);
    expect(outcomeOf(result)).toEqual(API_RULE[actor]);
    // Only staff make the outside call.
    expect(calls.length - before).toBe(API_RULE[actor].kind === "ok" ? 1 : 0);
  });

  it("fills the street, neighbourhood, city and state", async () => {
    expect(body(await ask("59090000"))).toEqual({ cep: "59090-000", street: "Avenida Engenheiro Roberto Freire", neighborhood: "Ponta Negra", city: "Natal", state: "RN" });
  });

  it("answers a bad CEP with 400 and a message, without calling the service", async () => {
    const before = calls.length;
    for (const cep of ["123", "59090-00a", "5909000000", "../../etc", "%20"]) {
      const result = await ask(cep);
      expect(status(result)).toBe(400);
      expect(body(result).message).toBe("CEP inválido: use 8 dígitos, como 59000-000");
    }
    expect(calls.length).toBe(before);
  });

  it("answers an unknown CEP with 404, and a broken or silent service with 502", async () => {
    expect(status(await ask("59000-001"))).toBe(404);
    expect(body(await ask("59000-001")).message).toBe("CEP não encontrado");
    expect(status(await ask("59999-999"))).toBe(502);
    expect(status(await ask("59888-888"))).toBe(502);
  }, 20_000);
});

describe("CEP lookup when not configured", () => {
  it("answers 404 without calling anything", async () => {
    const { lookupCep } = await import("~/features/properties/map/cep-lookup.server");
    let called = false;
    const fetcher = (async () => {
      called = true;
      return new Response("{}");
    }) as typeof fetch;
    expect(await lookupCep("59090-000", undefined, fetcher)).toEqual({ ok: false, status: 404, message: "A busca de endereço pelo CEP não está configurada" });
    expect(called).toBe(false);
  });
});
