import { describe, expect, it } from "vitest";
import type { BoardColumn, BoardLead } from "../board.server";
import { applyMoves } from "./lead-board";

const lead = (id: string, status: BoardLead["status"], minute: number): BoardLead => ({
  id,
  full_name: `Lead ${id}`,
  phone: "(84) 99999-0000",
  status,
  created_at: new Date(Date.UTC(2026, 10, 23, 12, minute)).toISOString(),
  excerpt: null,
  property_codigo: null,
  property_id: null,
  property_title: null,
  lost_reason: null,
});

const columns = (): BoardColumn[] => [
  { status: "novo", total: 3, leads: [lead("a", "novo", 3), lead("b", "novo", 1)] },
  { status: "em_atendimento", total: 1, leads: [lead("c", "em_atendimento", 2)] },
  { status: "convertido", total: 0, leads: [] },
  { status: "perdido", total: 0, leads: [] },
];

describe("applyMoves (the board's optimistic moves)", () => {
  it("without moves, shows the loader's columns as they are", () => {
    const shown = applyMoves(columns(), []);
    expect(shown.map((column) => [column.status, column.total, column.leads.map((item) => item.id)])).toEqual([
      ["novo", 3, ["a", "b"]],
      ["em_atendimento", 1, ["c"]],
      ["convertido", 0, []],
      ["perdido", 0, []],
    ]);
    // 'shown' is what the loader sent, so 'Mostrando os N mais recentes de T' stays true.
    expect(shown[0].shown).toBe(2);
  });

  it("moves a card into its new column at once, newest first there, with both totals following", () => {
    const shown = applyMoves(columns(), [{ id: "a", to: "em_atendimento" }]);
    expect(shown[0]).toMatchObject({ total: 2, leads: [expect.objectContaining({ id: "b" })] });
    expect(shown[1].total).toBe(2);
    expect(shown[1].leads.map((item) => [item.id, item.status])).toEqual([
      ["a", "em_atendimento"],
      ["c", "em_atendimento"],
    ]);
  });

  it("changes nothing for a move the loader data already shows (the server answered, the page revalidated)", () => {
    const shown = applyMoves(columns(), [{ id: "c", to: "em_atendimento" }]);
    expect(shown.map((column) => column.total)).toEqual([3, 1, 0, 0]);
  });

  it("the latest of two moves of one card wins", () => {
    const shown = applyMoves(columns(), [
      { id: "b", to: "convertido" },
      { id: "b", to: "perdido" },
    ]);
    expect(shown.map((column) => column.total)).toEqual([2, 1, 0, 1]);
    expect(shown[3].leads.map((item) => item.id)).toEqual(["b"]);
  });
});
