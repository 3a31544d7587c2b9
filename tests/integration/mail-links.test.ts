import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite } from "~/db/client.server";
import { invitation, outbox } from "~/db/schema";
import { issueToken, newToken, tokenHash } from "~/features/auth/tokens.server";
import { restoreBackupArchive, writeBackupArchive } from "~/features/backup/archive.server";
import { composeMail } from "~/features/mail/compose.server";
import { deliverDueMail } from "~/features/mail/worker.server";
import { type Runtime, startRuntime, stopRuntime } from "~/runtime.server";
import { action as authAction } from "~/routes/auth";
import { action as forgotAction } from "~/routes/auth-forgot";
import { action as inviteAction, loader as inviteLoader } from "~/routes/auth-invite";
import { action as resetAction, loader as resetLoader } from "~/routes/auth-reset";
import { loader as verifyLoader } from "~/routes/auth-verify";
import { loader as emailsLoader } from "~/routes/crm-emails";
import { action as usersAction } from "~/routes/crm-users";
import { createSignedInUser, makeRequest, type TestUser } from "../helpers/factories";
import { everyTextValue, tokenCandidates } from "../helpers/database-text";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { answerOf, call, linkIn, tokenOf } from "./auth-helpers";

/**
 * Issue 21, finding 1: account e-mails waited in (and stayed in) the outbox with their raw
 * token, so a backup or any copy of the database held working invitation and reset links.
 * Here a real copy — the backup archive restored into a new folder (embedded database) or
 * pg_dump's output (PostgreSQL) — is searched for every token-like string, and each one is tried
 * on the real link pages; while the e-mails the SMTP server received still carry working links.
 */

let ipCounter = 0;
const nextIp = () => `203.0.113.${(++ipCounter % 250) + 1}`;
const unique = (name: string) => `${name}-${crypto.randomBytes(3).toString("hex")}@exemplo.com`;
const context = { cspNonce: "n", clientIp: "192.0.2.41" };

describe.each(DATABASE_KINDS)("no usable link in a copy of the database on %s", (kind) => {
  let test: TestRuntime;
  let smtp: TestSmtpServer;
  let admin: TestUser;
  const runtime = () => test.runtime;
  const withSmtp = (url: string) => ({ db: runtime().db, env: { ...runtime().env, SMTP_URL: url } });

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    smtp = await startSmtpServer();
    admin = await createSignedInUser(test.runtime, "admin");
  });
  afterAll(async () => {
    await smtp.stop();
    await test.stop();
  });

  /** Every text value of a real copy: the backup archive restored elsewhere, or pg_dump's output. */
  async function copyOfDatabase(label: string): Promise<string> {
    if (kind === "postgres") {
      return execFileSync("pg_dump", ["--data-only", "--no-owner", runtime().env.DATABASE_URL!], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
    }
    const archive = path.join(test.dataDir, `copy-${label}.tar.gz`);
    await writeBackupArchive({ database: runtime().database, dataDir: runtime().env.dataDir, storageKind: "local" }, archive);
    const restored = path.join(test.dataDir, `restored-${label}`);
    await restoreBackupArchive({ archive, dataDir: restored });
    const handle = await openPglite(restored);
    try {
      return (await everyTextValue(handle.db)).map((entry) => entry.value).join("\n");
    } finally {
      await handle.close();
    }
  }

  /** What a stranger holding `candidate` gets from the link pages: true if any page accepts it. */
  async function opensAnything(candidate: string): Promise<boolean> {
    const query = `?token=${encodeURIComponent(candidate)}`;
    for (const loader of [inviteLoader, resetLoader, verifyLoader]) {
      const page = answerOf<{ valid: boolean }>(await call(loader, makeRequest(`/auth/x${query}`), nextIp()));
      if (page.body.valid !== false) return true;
    }
    // The shape of a real token: try the forms themselves too (they use the token up if it works).
    if (/^[A-Za-z0-9_-]{43}$/.test(candidate)) {
      const reset = answerOf(
        await call(resetAction, makeRequest("/auth/redefinir", { form: { token: candidate, password: "tomada-de-conta-1" } }), nextIp()),
      );
      const accept = answerOf(
        await call(
          inviteAction,
          makeRequest("/auth/convite", { form: { token: candidate, fullName: "Invasor", password: "tomada-de-conta-1" } }),
          nextIp(),
        ),
      );
      if (reset.status === 302 || accept.status === 302) return true;
    }
    return false;
  }

  it("a backup after an invitation, a reset and a sign-up holds no link that opens; the e-mails' links work", async () => {
    // Rows stored before this fix: an open invitation still waiting to be sent, and a sent reset
    // e-mail, both with the raw token in their bodies, as the old code wrote them.
    const legacyInvitee = unique("antigo");
    const legacyInviteToken = newToken();
    await runtime().db.insert(invitation).values({
      email: legacyInvitee,
      role: "admin",
      token_hash: tokenHash(legacyInviteToken),
      invited_by: admin.id,
      expires_at: sql`now() + interval '72 hours'`,
    });
    const legacyMail = (url: string) =>
      composeMail({ subject: "Convite para o CRM", paragraphs: ["Aceite o convite."], action: { label: "Aceitar convite", url } });
    await runtime().db.insert(outbox).values({
      kind: "invite",
      to_address: legacyInvitee,
      ...(({ subject, text, html }) => ({ subject, text_body: text, html_body: html }))(
        legacyMail(`http://localhost:3000/auth/convite?token=${legacyInviteToken}`),
      ),
    });
    const legacyResetToken = await issueToken(runtime().db, "password-reset", admin.id);
    await runtime().db.insert(outbox).values({
      kind: "reset-password",
      to_address: admin.email,
      status: "sent",
      sent_at: new Date(),
      ...(({ subject, text, html }) => ({ subject, text_body: text, html_body: html }))(
        legacyMail(`http://localhost:3000/auth/redefinir?token=${legacyResetToken}`),
      ),
    });
    // The next start deals with stored rows.
    await stopRuntime();
    test.runtime = await startRuntime({ env: test.runtime.env, firstStartTasks: false, log: () => {} });

    // An admin invites a new admin; a staff member asks for a new password; a visitor signs up.
    const invitee = unique("novo-admin");
    const invited = await call(
      usersAction,
      makeRequest("/crm/usuarios", { form: { intent: "invite", email: invitee, role: "admin" }, cookie: admin.cookie }),
    );
    expect(answerOf(invited).body).toMatchObject({ ok: true });
    const staff = await createSignedInUser(runtime(), "corretor");
    expect(answerOf(await call(forgotAction, makeRequest("/auth/esqueci", { form: { email: staff.email } }), nextIp())).body).toMatchObject({ sent: true });
    const visitor = unique("visitante");
    await call(authAction, makeRequest("/auth", { form: { intent: "cadastro", fullName: "Visitante", email: visitor, password: "senha-do-visitante-1" } }), nextIp());

    // Copy 1: every message still waiting. The CRM's list of e-mails with problems, after a
    // first attempt refused by the SMTP server, is searched too.
    const pendingCopy = await copyOfDatabase("pending");
    const refusing = await startSmtpServer({ failFirst: 1000 });
    await deliverDueMail(withSmtp(refusing.url));
    await refusing.stop();
    const emailsPage = JSON.stringify(
      await emailsLoader({ request: makeRequest("/crm/emails", { cookie: admin.cookie }), params: {}, context } as never),
    );
    expect(emailsPage).toContain(invitee);

    // The real delivery; copy 2: every message sent.
    await runtime().db.execute(sql`update outbox set next_attempt_at = now() where status = 'pending'`);
    await deliverDueMail(withSmtp(smtp.url));
    const mailTo = (to: string) => smtp.waitFor((m: ReceivedMail) => m.to.includes(to));
    const [inviteMail, resetMail, verifyMail, legacyInviteMail] = await Promise.all([mailTo(invitee), mailTo(staff.email), mailTo(visitor), mailTo(legacyInvitee)]);
    const sentCopy = await copyOfDatabase("sent");

    const realTokens = [
      tokenOf(linkIn(inviteMail, "/auth/convite")),
      tokenOf(linkIn(resetMail, "/auth/redefinir")),
      tokenOf(linkIn(verifyMail, "/auth/verificar")),
      tokenOf(linkIn(legacyInviteMail, "/auth/convite")),
    ];
    expect(realTokens).toContain(legacyInviteToken);

    // Every token-like string of the copies and of the CRM page, tried on the link pages: none opens.
    const candidates = new Set([...tokenCandidates(pendingCopy), ...tokenCandidates(sentCopy), ...tokenCandidates(emailsPage)]);
    expect(candidates.size).toBeGreaterThan(20);
    const opened: string[] = [];
    for (const candidate of candidates) if (await opensAnything(candidate)) opened.push(candidate);
    expect(opened).toEqual([]);
    // The copies hold no raw token of any e-mail; the links still waiting were there only sealed.
    for (const copy of [pendingCopy, sentCopy, emailsPage]) {
      for (const token of [...realTokens, legacyResetToken]) expect(copy).not.toContain(token);
    }
    expect(pendingCopy).toMatch(/v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/);

    // The e-mails themselves work: the invitation makes an admin, the reset sets a password, the
    // confirmation page opens, and the invitation stored before the fix still works.
    expect(answerOf(await call(verifyLoader, makeRequest(linkIn(verifyMail, "/auth/verificar")))).body).toMatchObject({ valid: true, email: visitor });
    expect(answerOf(await call(resetLoader, makeRequest(linkIn(resetMail, "/auth/redefinir")))).body).toMatchObject({ valid: true, email: staff.email });
    const accepted = answerOf(
      await call(inviteAction, makeRequest("/auth/convite", { form: { token: realTokens[0], fullName: "Nova Admin", password: "senha-da-admin-1" } })),
    );
    expect(accepted).toMatchObject({ status: 302, location: "/crm" });
    const reset = answerOf(await call(resetAction, makeRequest("/auth/redefinir", { form: { token: realTokens[1], password: "senha-nova-do-staff-1" } })));
    expect(reset.status).toBe(302);
    const legacyAccepted = answerOf(
      await call(inviteAction, makeRequest("/auth/convite", { form: { token: legacyInviteToken, fullName: "Admin Antigo", password: "senha-do-antigo-1" } })),
    );
    expect(legacyAccepted).toMatchObject({ status: 302, location: "/crm" });

    // Sent rows keep no sealed token either.
    const rows = await runtime().db.select({ status: outbox.status, link: outbox.link_token }).from(outbox);
    expect(rows.every((row) => row.status === "sent" && row.link === null)).toBe(true);
  });

  it("a copy started elsewhere, without the auth secret, cannot send itself a waiting link", async () => {
    const invitee = unique("desviado");
    await call(usersAction, makeRequest("/crm/usuarios", { form: { intent: "invite", email: invitee, role: "admin" }, cookie: admin.cookie }));
    const [row] = await runtime().db.select().from(outbox).where(eq(outbox.to_address, invitee));
    // Whoever holds the copy points the message at themselves and runs the sender with a new secret.
    await runtime().db.update(outbox).set({ to_address: "invasor@exemplo.com" }).where(eq(outbox.id, row.id));
    const elsewhere = { db: runtime().db, env: { ...runtime().env, SMTP_URL: smtp.url, AUTH_SECRET: crypto.randomBytes(32).toString("hex") } } as Pick<Runtime, "db" | "env">;
    expect(await deliverDueMail(elsewhere)).toEqual({ sent: 0, failed: 1, retried: 0 });
    expect(smtp.messages.some((m) => m.to.includes("invasor@exemplo.com"))).toBe(false);
    const [after] = await runtime().db.select().from(outbox).where(eq(outbox.id, row.id));
    expect(after).toMatchObject({ status: "failed", link_token: null });
    expect(after.last_error).toMatch(/link/);
  });

  it("the CRM's e-mail list and a stored body show the link's place, not its token", async () => {
    const email = unique("lista");
    await call(usersAction, makeRequest("/crm/usuarios", { form: { intent: "invite", email, role: "corretor" }, cookie: admin.cookie }));
    const [row] = await runtime().db.select().from(outbox).where(eq(outbox.to_address, email));
    expect(row.text_body).toMatch(/\/auth\/convite\?token=__token__/);
    expect(row.html_body).toMatch(/\/auth\/convite\?token=__token__/);
    expect(fs.existsSync(path.join(runtime().env.dataDir, "auth-secret"))).toBe(true);
  });
});
