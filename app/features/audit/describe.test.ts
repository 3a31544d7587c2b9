// @vitest-environment node
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeEntry, type Names, type StoredEntry } from "./describe";
import { AUDIT_ACTION_LABELS } from "./labels";

const LEAD = "3f2a9c1b-0000-4000-8000-000000000001";
const GONE = "3f2a9c1b-0000-4000-8000-000000000002";
const VISIT = "f88c9339-0000-4000-8000-000000000003";
const names: Names = {
  records: new Map([
    [`lead:${LEAD}`, "Maria Silva"],
    ["property:p1", "AP-PN-101 — Apartamento em Ponta Negra"],
    [`visit:${VISIT}`, "de Maria Silva em 25/11/2026, 14:30"],
    ["user:u1", "Ana Souza (ana@exemplo.com)"],
  ]),
  people: new Map([["u1", { name: "Ana Souza", email: "ana@exemplo.com" }]]),
};
const entry = (overrides: Partial<StoredEntry>): StoredEntry => ({
  action: "property.update",
  entity: "property",
  entity_id: null,
  actor_id: "u1",
  actor_email: "ana@exemplo.com",
  details: null,
  ...overrides,
});

describe("an audit entry in Portuguese", () => {
  it("names who did what to which record, as they are called now", () => {
    expect(describeEntry(entry({ entity_id: "p1", details: { codigo: "AP-1", fields: ["price", "images"] } }), names)).toEqual({
      actor: "Ana Souza",
      actorNote: "ana@exemplo.com",
      action: "Imóvel editado",
      record: "Imóvel AP-PN-101 — Apartamento em Ponta Negra",
      details: ["Campos alterados: preço, fotos"],
    });
    expect(describeEntry(entry({ action: "visit.update", entity: "visit", entity_id: VISIT, details: { fields: ["status"], status: "realizada" } }), names)).toMatchObject({
      record: "Visita de Maria Silva em 25/11/2026, 14:30",
      details: ["Campos alterados: status", "Status: Realizada"],
    });
    expect(describeEntry(entry({ action: "lead.note", entity: "lead", entity_id: LEAD }), names).record).toBe("Lead Maria Silva");
    expect(describeEntry(entry({ action: "settings.update", entity: "settings", entity_id: "broker_profile", details: { key: "broker_profile", fields: ["siteName"] } }), names)).toMatchObject({
      record: "Configuração: Perfil do corretor",
      details: ["Campos alterados: nome do site"],
    });
  });

  it("says when a record or a person was deleted since", () => {
    expect(describeEntry(entry({ action: "lead.delete", entity: "lead", entity_id: GONE }), names).record).toBe("Lead (excluído)");
    expect(describeEntry(entry({ action: "property.delete", entity_id: "p9", details: { codigo: "CA-9" } }), names).record).toBe("Imóvel CA-9 (excluído)");
    expect(describeEntry(entry({ action: "visit.create", entity: "visit", entity_id: "f0000000-0000-4000-8000-000000000000" }), names).record).toBe("Visita (excluída)");
    expect(describeEntry(entry({ actor_id: "u-gone", actor_email: "saiu@exemplo.com" }), names)).toMatchObject({ actor: "saiu@exemplo.com", actorNote: "conta excluída" });
    expect(describeEntry(entry({ action: "user.delete", entity: "user", entity_id: "u-gone", details: { role: "corretor" } }), names)).toMatchObject({
      action: "Conta excluída",
      record: "Usuário (conta excluída)",
      details: ["Acesso que tinha: Corretor"],
    });
  });

  it("reads sign-ins: the account's own, or a visitor's refused attempt with the address", () => {
    expect(describeEntry(entry({ action: "auth.sign_in", entity: "user", entity_id: "u1", actor_id: null, details: { ip: "203.0.113.9" } }), names)).toEqual({
      actor: "Ana Souza",
      actorNote: "ana@exemplo.com",
      action: "Entrou no CRM",
      record: "Usuário Ana Souza (ana@exemplo.com)",
      details: ["Endereço: 203.0.113.9"],
    });
    expect(describeEntry(entry({ action: "auth.sign_in_failed", entity: "user", actor_id: null, details: { ip: "203.0.113.9", reason: "unknown_account", email: "n…@exemplo.com" } }), names)).toEqual({
      actor: "Visitante",
      actorNote: null,
      action: "Entrada recusada: conta inexistente",
      record: "Conta inexistente (n…@exemplo.com)",
      details: ["Endereço: 203.0.113.9"],
    });
    expect(describeEntry(entry({ action: "auth.sign_in_throttled", entity: "user", entity_id: "u1", actor_id: null, details: { ip: "1.2.3.4", limit: "pair" } }), names).details).toEqual([
      "Endereço: 1.2.3.4",
      "Limite atingido: 5 tentativas da mesma conta neste endereço em 15 minutos",
    ]);
  });

  it("writes values in words, never JSON", () => {
    const exported = describeEntry(
      entry({ action: "lead.export", entity: "lead", details: { format: "xlsx", rows: 12, status: null, search: true, period: { from: "2026-11-01", to: "2026-11-30" } } }),
      names,
    );
    expect(exported).toMatchObject({ record: "Leads", details: ["Formato: planilha XLSX", "Linhas: 12", "Status: todos", "Com busca por texto", "Período: 01/11/2026 a 30/11/2026"] });
    const deals = describeEntry(entry({ action: "deal.export", entity: "deal", details: { format: "csv", rows: 3, commissions: false, period: { from: "2026-11-01", to: "2026-11-30" } } }), names);
    expect(deals).toMatchObject({ action: "Relatório de negócios exportado", details: ["Formato: CSV", "Linhas: 3", "Sem as comissões", "Período: 01/11/2026 a 30/11/2026"] });
    const privacy = describeEntry(
      entry({ action: "privacy.export", entity: "lead", entity_id: LEAD, details: { leadIds: [LEAD, GONE], counts: { leads: 2, events: 1, visits: 0, emails: 3 }, format: "json" } }),
      names,
    );
    expect(privacy.details).toEqual(["Leads: Maria Silva e 1 excluído", "Registros: 2 leads, 1 evento da linha do tempo, 0 visitas, 3 emails", "Formato: JSON"]);
    const odd = describeEntry(entry({ action: "mail.resend", details: { attempts: 3, ok: false, nested: { a: 1, b: [1, 2] } } }), names);
    expect(odd.action).toBe("mail.resend");
    expect(odd.details).toEqual(["Attempts: 3", "Ok: não", "Nested: a 1, b 1, 2"]);
    expect(JSON.stringify([exported, privacy, odd].flatMap((item) => item.details))).not.toMatch(/[{}]/);
  });

  it("has a label for every action the code records", () => {
    const root = path.resolve("app");
    const recorded = new Set<string>();
    for (const file of fs.readdirSync(root, { recursive: true }).map(String)) {
      if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
      const text = fs.readFileSync(path.join(root, file), "utf8");
      for (const match of text.matchAll(/action: "([a-z_]+\.[a-z_]+)"|"(auth\.sign_in[a-z_]*)"/g)) recorded.add(match[1] ?? match[2]);
    }
    expect(recorded.size).toBeGreaterThan(30);
    expect([...recorded].filter((action) => !AUDIT_ACTION_LABELS[action])).toEqual([]);
    expect(describeEntry(entry({ action: "calendar_feed.revoke", entity: "user", entity_id: "u1", details: { reason: "sign_out" } }), names).details).toEqual([
      "Motivo: a pessoa usou 'Sair' (todas as sessões)",
    ]);
    expect(describeEntry(entry({ action: "user.role", entity: "user", entity_id: "u1", actor_id: null, details: { from: "admin", to: null, source: "cli" } }), names)).toMatchObject({
      actor: "Sistema",
      details: ["Acesso: Administrador → sem acesso", "Origem: linha de comando (CLI)"],
    });
  });
});

describe("a neighbourhood text's audit entry (decision 021)", () => {
  it("names the neighbourhood as the listings spell it and the text's new length", () => {
    expect(
      describeEntry(entry({ action: "neighbourhood.text", entity: "neighbourhood", entity_id: "petropolis", details: { name: "Petrópolis", textLength: 42 } }), names),
    ).toMatchObject({ action: "Texto do bairro alterado", record: "Bairro Petrópolis", details: ["Tamanho do texto (caracteres): 42"] });
  });
});
