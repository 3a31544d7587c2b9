import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openPostgres, queryRows } from "~/db/client.server";
import { leads, outbox } from "~/db/schema";
import { listProblemMail } from "~/features/mail/admin.server";
import { composeMail } from "~/features/mail/compose.server";
import { pruneOutbox } from "~/features/mail/housekeeping.server";
import { deleteAccountMailTo, enqueueMail, type OutgoingMail } from "~/features/mail/outbox.server";
import { LINK_UNAVAILABLE, sealLinkToken } from "~/features/mail/sealed-link.server";
import { MAX_ATTEMPTS, deliverDueMail, messageIdFor, smtpAnswer, startMailWorker } from "~/features/mail/worker.server";
import { action as emailsAction, loader as emailsLoader } from "~/routes/crm-emails";
import { loader as dashboardLoader } from "~/routes/crm-dashboard";
import { createSignedInUser, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { type TestSmtpServer, startSmtpServer } from "../helpers/smtp-server";

const context = { cspNonce: "n", clientIp: "192.0.2.40" };

describe("composeMail", () => {
  it("escapes every input in the HTML and keeps the text readable", () => {
    const mail = composeMail({
      subject: "Olá <b>\r\nBcc: x@y.com",
      greeting: `Olá, <script>alert("x")</script>`,
      paragraphs: ["Um & dois < três", `Aspas "duplas" e 'simples'`],
      action: { label: "Abrir <link>", url: `https://exemplo.com/a?b=1&c="><img src=x onerror=alert(1)>` },
      footer: "<i>rodapé</i>",
    });
    expect(mail.subject).toBe("Olá <b> Bcc: x@y.com");
    expect(mail.html).not.toMatch(/<script|<b>|<i>|<img|<link>/);
    expect(mail.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(mail.html).toContain("Um &amp; dois &lt; três");
    expect(mail.html).toContain("Aspas &quot;duplas&quot; e &#39;simples&#39;");
    expect(mail.html).toContain("Abrir &lt;link&gt;");
    expect(mail.html).toContain('<html lang="pt-BR">');
    // The text version carries everything as written, the link in full.
    expect(mail.text).toContain(`Olá, <script>alert("x")</script>`);
    expect(mail.text).toContain(`Abrir <link>:\nhttps://exemplo.com/a?b=1&c="><img src=x onerror=alert(1)>`);
  });

  it("never makes a javascript: link clickable", () => {
    const mail = composeMail({ subject: "s", paragraphs: ["p"], action: { label: "Clique", url: "javascript:alert(1)" } });
    expect(mail.html).not.toContain('href="javascript:');
    expect(mail.html).toContain('href="#"');
  });
});

describe("smtpAnswer", () => {
  it("keeps the server's answer without addresses", () => {
    expect(smtpAnswer({ response: "550 5.1.1 <maria@exemplo.com>: Recipient address rejected", responseCode: 550 })).toBe(
      "550 5.1.1 <…>: Recipient address rejected",
    );
    expect(smtpAnswer({ code: "ECONNECTION", message: "connect ECONNREFUSED 127.0.0.1:1" })).toBe("ECONNECTION: connect ECONNREFUSED 127.0.0.1:1");
  });
});

describe.each(DATABASE_KINDS)("outgoing e-mail on %s", (kind) => {
  let test: TestRuntime;
  let smtp: TestSmtpServer;
  let admin: TestUser;
  const extraServers: TestSmtpServer[] = [];

  /** The test runtime as if started with SMTP_URL pointing at `url`. */
  const withSmtp = (url: string) => ({ db: test.runtime.db, env: { ...test.runtime.env, SMTP_URL: url } });
  const mailFor = (to: string, overrides: Partial<OutgoingMail> = {}): OutgoingMail => ({
    kind: "test",
    to,
    subject: "Assunto de teste",
    text: "Texto de teste",
    ...overrides,
  });
  const row = async (id: string) => (await test.runtime.db.select().from(outbox).where(eq(outbox.id, id)))[0];
  /** Back-off without waiting: the retry becomes due now. */
  const makeDue = (id: string) => test.runtime.db.execute(sql`update outbox set next_attempt_at = now() where id = ${id}`);
  const otherServer = async (options?: { failFirst?: number }) => {
    const server = await startSmtpServer(options);
    extraServers.push(server);
    return server;
  };

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    smtp = await startSmtpServer();
    admin = await createSignedInUser(test.runtime, "admin");
  });
  beforeEach(async () => {
    await test.runtime.db.delete(outbox);
    smtp.messages.length = 0;
  });
  afterEach(async () => {
    await Promise.all(extraServers.splice(0).map((server) => server.stop()));
  });
  afterAll(async () => {
    await smtp.stop();
    await test.stop();
  });

  it("never sends a message whose transaction rolled back", async () => {
    await expect(
      test.runtime.db.transaction(async (tx) => {
        await tx.insert(leads).values({ full_name: "Lead Desfeito", phone: "(84) 99999-0001" });
        await enqueueMail(tx, mailFor("desfeito@teste.com"));
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(await deliverDueMail(withSmtp(smtp.url))).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(smtp.messages).toHaveLength(0);
    expect(await test.runtime.db.select().from(outbox)).toHaveLength(0);
  });

  it("delivers a committed message with its subject, text, HTML, sender and a Message-ID from its row", async () => {
    const composed = composeMail({
      subject: "Confirme seu e-mail",
      greeting: "Olá, Maria",
      paragraphs: ["Falta só confirmar o seu e-mail."],
      action: { label: "Confirmar e-mail", url: "http://localhost:3000/auth/confirmar?token=abc123" },
    });
    const id = await test.runtime.db.transaction(async (tx) => {
      await tx.insert(leads).values({ full_name: "Lead Confirmado", phone: "(84) 99999-0002" });
      return enqueueMail(tx, { kind: "verify-email", to: "maria@teste.com", ...composed });
    });
    expect(await deliverDueMail(withSmtp(smtp.url))).toEqual({ sent: 1, failed: 0, retried: 0 });

    const received = await smtp.waitFor((m) => m.to.includes("maria@teste.com"));
    expect(smtp.messages).toHaveLength(1);
    expect(received.subject).toBe("Confirme seu e-mail");
    expect(received.text).toContain("Falta só confirmar o seu e-mail.");
    expect(received.html).toContain('href="http://localhost:3000/auth/confirmar?token=abc123"');
    expect(received.messageId).toBe(messageIdFor(id, test.runtime.env));
    expect(received.from).toBe("nao-responda@localhost");
    expect(received.raw).toMatch(/^Auto-Submitted: auto-generated/m);
    // The link can be followed from the text version too.
    const link = new URL(received.text.match(/https?:\/\/\S+/)![0]);
    expect(link.pathname).toBe("/auth/confirmar");
    expect(link.searchParams.get("token")).toBe("abc123");

    const sent = await row(id);
    expect(sent.status).toBe("sent");
    expect(sent.sent_at).toBeInstanceOf(Date);
    expect(sent.attempts).toBe(1);
    expect(sent.last_error).toBeNull();
    expect(sent.locked_until).toBeNull();
    // Sent means done: a second round sends nothing.
    expect(await deliverDueMail(withSmtp(smtp.url))).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(smtp.messages).toHaveLength(1);
  });

  it("uses MAIL_FROM as the sender when set", async () => {
    await enqueueMail(test.runtime.db, mailFor("remetente@teste.com"));
    const env = { ...test.runtime.env, SMTP_URL: smtp.url, MAIL_FROM: "Corretor Teste <site@corretor.com.br>" };
    await deliverDueMail({ db: test.runtime.db, env });
    const received = await smtp.waitFor((m) => m.to.includes("remetente@teste.com"));
    expect(received.from).toBe("site@corretor.com.br");
    expect(received.raw).toMatch(/^From: Corretor Teste <site@corretor\.com\.br>/m);
  });

  it("retries with back-off after temporary failures and delivers once", async () => {
    const flaky = await otherServer({ failFirst: 2 });
    const id = await enqueueMail(test.runtime.db, mailFor("insiste@teste.com"));

    expect(await deliverDueMail(withSmtp(flaky.url))).toEqual({ sent: 0, failed: 0, retried: 1 });
    let current = await row(id);
    expect(current.status).toBe("pending");
    expect(current.attempts).toBe(1);
    expect(current.last_error).toMatch(/^451\b/);
    expect(current.last_error).not.toContain("@");
    expect(current.locked_until).toBeNull();
    const [first] = await queryRows<{ wait: number }>(
      test.runtime.db,
      sql`select extract(epoch from next_attempt_at - now())::float8 as wait from outbox where id = ${id}`,
    );
    expect(first.wait).toBeGreaterThan(50);
    expect(first.wait).toBeLessThanOrEqual(60);
    // Not due yet: nothing happens.
    expect(await deliverDueMail(withSmtp(flaky.url))).toEqual({ sent: 0, failed: 0, retried: 0 });

    await makeDue(id);
    expect(await deliverDueMail(withSmtp(flaky.url))).toEqual({ sent: 0, failed: 0, retried: 1 });
    current = await row(id);
    expect(current.attempts).toBe(2);
    const [second] = await queryRows<{ wait: number }>(
      test.runtime.db,
      sql`select extract(epoch from next_attempt_at - now())::float8 as wait from outbox where id = ${id}`,
    );
    // The wait grows: 1 minute, then 5.
    expect(second.wait).toBeGreaterThan(4 * 60);

    await makeDue(id);
    expect(await deliverDueMail(withSmtp(flaky.url))).toEqual({ sent: 1, failed: 0, retried: 0 });
    expect(flaky.rejected()).toBe(2);
    expect(flaky.messages).toHaveLength(1);
    current = await row(id);
    expect(current.status).toBe("sent");
    expect(current.attempts).toBe(3);
    expect(current.last_error).toBeNull();
  });

  it("marks a message failed after the last attempt, lists it for admins, and 'Tentar novamente' delivers it", async () => {
    const refusing = await otherServer({ failFirst: 1000 });
    const id = await enqueueMail(test.runtime.db, mailFor("nunca@teste.com", { kind: "invite" }));
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await makeDue(id);
      const result = await deliverDueMail(withSmtp(refusing.url));
      expect(result).toEqual(attempt < MAX_ATTEMPTS ? { sent: 0, failed: 0, retried: 1 } : { sent: 0, failed: 1, retried: 0 });
    }
    const failed = await row(id);
    expect(failed.status).toBe("failed");
    expect(failed.attempts).toBe(MAX_ATTEMPTS);
    // A failed message is not picked up again, even when "due".
    await makeDue(id);
    expect(await deliverDueMail(withSmtp(refusing.url))).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(refusing.rejected()).toBe(MAX_ATTEMPTS);

    const problems = await listProblemMail(test.runtime.db);
    expect(problems).toEqual([
      expect.objectContaining({ id, kind: "invite", to: "nunca@teste.com", status: "failed", attempts: MAX_ATTEMPTS }),
    ]);
    expect(problems[0].lastError).toMatch(/^451\b/);

    // The admin's page shows it, and its button puts it back in the queue.
    const page = (await emailsLoader({ request: makeRequest("/crm/emails", { cookie: admin.cookie }), params: {}, context } as never)) as {
      status: { enabled: boolean; failed: number };
      problems: { id: string }[];
    };
    expect(page.status).toMatchObject({ enabled: false, failed: 1 });
    expect(page.problems.map((p) => p.id)).toEqual([id]);
    const answer = await emailsAction({ request: makeRequest("/crm/emails", { form: { id }, cookie: admin.cookie }), params: {}, context } as never);
    expect(answer).toMatchObject({ ok: true });
    const reset = await row(id);
    expect(reset).toMatchObject({ status: "pending", attempts: 0 });

    expect(await deliverDueMail(withSmtp(smtp.url))).toEqual({ sent: 1, failed: 0, retried: 0 });
    await smtp.waitFor((m) => m.to.includes("nunca@teste.com"));
    expect((await row(id)).status).toBe("sent");
    expect(await listProblemMail(test.runtime.db)).toEqual([]);

    // A sent message cannot be "retried" (409), and a malformed id is a 400, not a 500.
    const again = await emailsAction({ request: makeRequest("/crm/emails", { form: { id }, cookie: admin.cookie }), params: {}, context } as never);
    expect(again).toMatchObject({ init: { status: 409 } });
    const bad = await emailsAction({ request: makeRequest("/crm/emails", { form: { id: "nao-e-um-id" }, cookie: admin.cookie }), params: {}, context } as never);
    expect(bad).toMatchObject({ init: { status: 400 }, data: { ok: false, message: "Pedido inválido" } });
  });

  it("a message re-sent after a crash between 'accepted' and 'sent' keeps its Message-ID", async () => {
    const id = await enqueueMail(test.runtime.db, mailFor("duas-vezes@teste.com"));
    await deliverDueMail(withSmtp(smtp.url));
    // The crash: the server accepted it, but the row still says pending (its claim expired).
    await test.runtime.db.update(outbox).set({ status: "pending", sent_at: null, locked_until: null }).where(eq(outbox.id, id));
    await deliverDueMail(withSmtp(smtp.url));
    const copies = smtp.messages.filter((m) => m.to.includes("duas-vezes@teste.com"));
    expect(copies).toHaveLength(2);
    expect(new Set(copies.map((m) => m.messageId))).toEqual(new Set([messageIdFor(id, test.runtime.env)]));
  });

  it("does not take a row another sender has claimed", async () => {
    const id = await enqueueMail(test.runtime.db, mailFor("ocupado@teste.com"));
    await test.runtime.db.execute(sql`update outbox set locked_until = now() + interval '5 minutes' where id = ${id}`);
    expect(await deliverDueMail(withSmtp(smtp.url))).toEqual({ sent: 0, failed: 0, retried: 0 });
    // A claim left by a dead process expires and the row is taken again.
    await test.runtime.db.execute(sql`update outbox set locked_until = now() - interval '1 second' where id = ${id}`);
    expect(await deliverDueMail(withSmtp(smtp.url))).toEqual({ sent: 1, failed: 0, retried: 0 });
  });

  it("a sender that is stopping finishes the message in flight and hands the rest back", async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await enqueueMail(test.runtime.db, mailFor(`parada${i}@teste.com`)));
    const stopping = new AbortController();
    // Shutdown begins while the first message is with the SMTP server.
    void smtp.waitFor(() => true).then(() => stopping.abort());
    expect(await deliverDueMail(withSmtp(smtp.url), { signal: stopping.signal })).toEqual({ sent: 1, failed: 0, retried: 0 });
    const rows = await Promise.all(ids.map(row));
    expect(rows.map((r) => r.status)).toEqual(["sent", "pending", "pending"]);
    expect(rows.slice(1).map((r) => [r.attempts, r.locked_until])).toEqual([
      [0, null],
      [0, null],
    ]);
    expect(await deliverDueMail(withSmtp(smtp.url))).toEqual({ sent: 2, failed: 0, retried: 0 });
  });

  it("two senders at once deliver every message exactly once", async () => {
    const total = 25;
    for (let i = 0; i < total; i++) await enqueueMail(test.runtime.db, mailFor(`lote${i}@teste.com`));
    // On PostgreSQL the second sender is a separate pool, like a second app process.
    const second = kind === "postgres" ? await openPostgres(test.runtime.env.DATABASE_URL!) : undefined;
    try {
      const env = { ...test.runtime.env, SMTP_URL: smtp.url };
      const results = await Promise.all([
        deliverDueMail({ db: test.runtime.db, env }),
        deliverDueMail({ db: second?.db ?? test.runtime.db, env }),
      ]);
      expect(results[0].sent + results[1].sent).toBe(total);
    } finally {
      await second?.close();
    }
    expect(smtp.messages).toHaveLength(total);
    expect(new Set(smtp.messages.map((m) => m.messageId)).size).toBe(total);
    const [{ n }] = await queryRows<{ n: number }>(test.runtime.db, sql`select count(*)::int as n from outbox where status = 'sent' and attempts = 1`);
    expect(n).toBe(total);
  });

  it("without SMTP_URL sends nothing, keeps the row pending, and delivers it once SMTP is configured", async () => {
    expect(test.runtime.env.SMTP_URL).toBeUndefined();
    expect(test.runtime.mail.enabled).toBe(false);
    const id = await enqueueMail(test.runtime.db, mailFor("depois@teste.com"));
    test.runtime.mail.wake();
    expect(await deliverDueMail(test.runtime)).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(await row(id)).toMatchObject({ status: "pending", attempts: 0, last_error: null });
    expect(smtp.messages).toHaveLength(0);

    // Admins are told, on the dashboard; a corretor is not.
    const dashboard = (await dashboardLoader({ request: makeRequest("/crm", { cookie: admin.cookie }), params: {}, context } as never)) as {
      mail: { enabled: boolean; pending: number } | null;
    };
    expect(dashboard.mail).toMatchObject({ enabled: false, pending: 1 });
    const corretor = await createSignedInUser(test.runtime, "corretor");
    const theirs = (await dashboardLoader({ request: makeRequest("/crm", { cookie: corretor.cookie }), params: {}, context } as never)) as {
      mail: unknown;
    };
    expect(theirs.mail).toBeNull();

    expect(await deliverDueMail(withSmtp(smtp.url))).toEqual({ sent: 1, failed: 0, retried: 0 });
    await smtp.waitFor((m) => m.to.includes("depois@teste.com"));
  });

  it("the background worker delivers on wake() and stops cleanly", async () => {
    const worker = startMailWorker({ ...test.runtime, env: { ...test.runtime.env, SMTP_URL: smtp.url } });
    try {
      expect(worker.enabled).toBe(true);
      await enqueueMail(test.runtime.db, mailFor("acordado@teste.com"));
      worker.wake();
      await smtp.waitFor((m) => m.to.includes("acordado@teste.com"), 20_000);
    } finally {
      await worker.stop();
    }
    worker.wake(); // after stop: nothing, no error
  });

  it("housekeeping deletes account e-mails a month after they went out, forgets sealed links past every link's life, and keeps lead alerts", async () => {
    const [lead] = await test.runtime.db.insert(leads).values({ full_name: "Lead Guardado", phone: "(84) 99999-0003" }).returning();
    const sealed = sealLinkToken(test.runtime.env, "token-de-teste");
    const old = await enqueueMail(test.runtime.db, mailFor("antigo@teste.com", { kind: "reset-password" }));
    const recent = await enqueueMail(test.runtime.db, mailFor("recente@teste.com", { kind: "reset-password" }));
    const failedOld = await enqueueMail(test.runtime.db, mailFor("falhou@teste.com", { kind: "invite" }));
    const alert = await enqueueMail(test.runtime.db, mailFor("corretor@teste.com", { kind: "lead-alert", leadId: lead.id }));
    const waitingExpired = await enqueueMail(test.runtime.db, mailFor("parado@teste.com", { kind: "invite", sealedLinkToken: sealed }));
    const waitingFresh = await enqueueMail(test.runtime.db, mailFor("novo@teste.com", { kind: "invite", sealedLinkToken: sealed }));
    const ago = (id: string, interval: string, status?: string) =>
      test.runtime.db.execute(sql`update outbox set created_at = now() - ${interval}::interval, status = coalesce(${status ?? null}, status) where id = ${id}`);
    await ago(old, "31 days", "sent");
    await ago(recent, "29 days", "sent");
    await ago(failedOld, "40 days", "failed");
    await ago(alert, "400 days", "sent");
    await ago(waitingExpired, "74 hours");
    await ago(waitingFresh, "1 hour");

    await pruneOutbox(test.runtime.db);
    const left = new Map((await test.runtime.db.select().from(outbox)).map((r) => [r.id, r]));
    expect(left.has(old)).toBe(false);
    expect(left.has(failedOld)).toBe(false);
    expect(left.get(recent)?.status).toBe("sent");
    expect(left.get(alert)?.status).toBe("sent");
    expect(left.get(waitingExpired)).toMatchObject({ status: "failed", link_token: null, last_error: LINK_UNAVAILABLE });
    expect(left.get(waitingFresh)).toMatchObject({ status: "pending", link_token: sealed });
  });

  it("deleting a user's account e-mails takes those to the address (any case), never the alerts about leads", async () => {
    const [lead] = await test.runtime.db.insert(leads).values({ full_name: "Lead do Corretor", phone: "(84) 99999-0004" }).returning();
    await enqueueMail(test.runtime.db, mailFor("Saindo@Teste.com", { kind: "verify-email" }));
    await enqueueMail(test.runtime.db, mailFor("saindo@teste.com", { kind: "reset-password" }));
    const alert = await enqueueMail(test.runtime.db, mailFor("saindo@teste.com", { kind: "lead-alert", leadId: lead.id }));
    const other = await enqueueMail(test.runtime.db, mailFor("fica@teste.com", { kind: "invite" }));
    expect(await deleteAccountMailTo(test.runtime.db, " SAINDO@teste.com ")).toBe(2);
    expect((await test.runtime.db.select({ id: outbox.id }).from(outbox)).map((r) => r.id).sort()).toEqual([alert, other].sort());
  });
});
