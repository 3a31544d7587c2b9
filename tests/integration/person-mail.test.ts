import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outbox } from "~/db/schema";
import { personMailIds } from "~/features/privacy/person-mail.server";
import { insertLead } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * Issue 26, item 2: the search for the e-mails naming a person reads each message once and, for
 * many contacts, looks them up by hash before any substring search (person-mail.server.ts).
 * What it matches must stay what the plain substring search matched: punctuation in a contact is
 * literal, a phone as typed matches wherever it stands (even inside a longer number), and in a
 * batch of many leads each lead's contacts are found, and nobody else's.
 */
describe.each(DATABASE_KINDS)("the e-mails naming a person on %s", (kind) => {
  let test: TestRuntime;
  beforeAll(async () => {
    test = await startTestRuntime(kind);
  });
  afterAll(async () => {
    await test?.stop();
  });

  const mail = (subject: string, text_body: string, html_body: string | null = null) => ({ kind: "aviso", to_address: "corretor@literal.com.br", subject, text_body, html_body });

  it("treats the contacts' punctuation literally: a look-alike is not the person", async () => {
    const lead = await insertLead(test.runtime, { full_name: "Ana Literal", phone: "+55 (84) 91234-5678", email: "Ana.B+casa@Exemplo.com" });
    const typedAsDigits = await insertLead(test.runtime, { full_name: "Bia Literal", phone: "84955554444" });
    const rows = await test.runtime.db
      .insert(outbox)
      .values([
        mail("hers: e-mail", "Escrever para ANA.B+CASA@exemplo.com"),
        mail("hers: phone as typed", "Ligar +55 (84) 91234-5678 à tarde"),
        mail("hers: in the HTML only", "-", "<a href='tel:5584912345678'>ligar</a>"),
        mail("not hers: dot as any character", "Escrever para anaxb+casa@exemplo.com"),
        mail("not hers: plus as repetition", "Escrever para ana.bbcasa@exemplo.com"),
        mail("not hers: parentheses as a group", "Ligar +55 84 91234-5678"),
        mail("not hers: digits inside a longer number", "Protocolo 1845584912345678"),
        mail("Bia's: her phone as she typed it, inside a longer number", "Protocolo 9984955554444007"),
      ])
      .returning({ id: outbox.id, subject: outbox.subject });
    // Alone (a person's page: the plain searches) and among 20 other leads (a retention batch: hashed first).
    const others = [];
    for (let n = 0; n < 20; n++) others.push((await insertLead(test.runtime, { full_name: `Outra ${n}`, phone: `(84) 97777-${String(1000 + n)}`, email: `outra.${n}@exemplo.com` })).id);
    for (const batch of [[lead.id, typedAsDigits.id], [lead.id, typedAsDigits.id, ...others]]) {
      const found = new Set(await personMailIds(test.runtime.db, batch));
      expect(rows.filter((row) => found.has(row.id)).map((row) => row.subject)).toEqual([
        "hers: e-mail",
        "hers: phone as typed",
        "hers: in the HTML only",
        "Bia's: her phone as she typed it, inside a longer number",
      ]);
    }
  });

  it("in a batch of 250 leads finds the e-mails naming the first and the last, and not a lead outside the batch", async () => {
    const leadRows = [];
    for (let n = 0; n < 250; n++) {
      const digits = String(84_900_000_000 + n);
      leadRows.push(await insertLead(test.runtime, { full_name: `Lote ${n}`, phone: `(84) ${digits.slice(2, 7)}-${digits.slice(7)}`, email: `lote.${n}@exemplo.com` }));
    }
    const rows = await test.runtime.db
      .insert(outbox)
      .values([
        mail("first lead's e-mail", "Contato: lote.0@exemplo.com"),
        mail("last lead's e-mail", "Contato: LOTE.249@exemplo.com"),
        mail("last lead's digits", "WhatsApp: https://wa.me/5584900000249"),
        mail("a lead outside the batch", "Contato: lote.250@exemplo.com, 84900000250"),
      ])
      .returning({ id: outbox.id, subject: outbox.subject });
    const found = new Set(await personMailIds(test.runtime.db, leadRows.map((lead) => lead.id)));
    expect(rows.filter((row) => found.has(row.id)).map((row) => row.subject)).toEqual(["first lead's e-mail", "last lead's e-mail", "last lead's digits"]);
  });
});
