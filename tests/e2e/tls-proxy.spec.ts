import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, request as playwrightRequest, test } from "@playwright/test";
import { type ServerProcess, startServerProcess } from "../helpers/server-process";
import { waitForHydration } from "./helpers";
import { TEMPLATE_DIR } from "./template";

/**
 * How the site is deployed: the production build behind a reverse proxy that ends TLS. The
 * server sees http://127.0.0.1:…, the browser https://localhost:…; with PUBLIC_URL set, forms,
 * sign-in and the CSRF checks must agree on the public origin (finding 5 of issue 9: every form
 * POST answered 400 here). A real nginx (Debian package) with a certificate made by openssl.
 */
const APP_PORT = 3302;
const TLS_PORT = 3443;
const PUBLIC_URL = `https://localhost:${TLS_PORT}`;
const ADMIN = { email: "admin@proxy.test", password: "senha-do-proxy-1" };

type Nginx = { process: ChildProcess; dir: string; log: () => string; stop(): Promise<void> };

/** A self-signed certificate for localhost, made here (never a file from the repository). */
function makeCertificate(dir: string) {
  execFileSync(
    "openssl",
    [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
      "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem"),
      "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
    ],
    { stdio: "ignore" },
  );
}

/** nginx in the foreground with every path in a temporary folder: no root-only files. */
async function startNginx(upstreamPort: number): Promise<Nginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nginx-tls-"));
  makeCertificate(dir);
  const config = `
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
${process.getuid?.() === 0 ? "user root;" : ""}
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 6m;
  # As the README's configuration: a few kept-alive connections to the app, so a crowd of new
  # visitors lands on nginx, not on new connections the busy app would accept one at a time.
  upstream app { server 127.0.0.1:${upstreamPort}; keepalive 16; }
  server {
    listen 127.0.0.1:${TLS_PORT} ssl;
    server_name localhost;
    ssl_certificate ${dir}/cert.pem;
    ssl_certificate_key ${dir}/key.pem;
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_buffering off;
    }
  }
}
`;
  const configFile = path.join(dir, "nginx.conf");
  fs.writeFileSync(configFile, config);
  let output = "";
  // Debian puts nginx in /usr/sbin, which is not on every user's PATH.
  const binary = fs.existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx";
  const child = spawn(binary, ["-p", dir, "-c", configFile, "-e", path.join(dir, "error.log")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const log = () => output + (fs.existsSync(path.join(dir, "error.log")) ? fs.readFileSync(path.join(dir, "error.log"), "utf8") : "");

  const client = await playwrightRequest.newContext({ ignoreHTTPSErrors: true });
  try {
    for (let tries = 0; ; tries++) {
      if (child.exitCode !== null) throw new Error(`nginx exited:\n${log()}`);
      const answered = await client.get(`${PUBLIC_URL}/robots.txt`).then((response) => response.ok(), () => false);
      if (answered) break;
      if (tries > 100) throw new Error(`nginx did not answer:\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.dispose();
  }
  return {
    process: child,
    dir,
    log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        // SIGTERM: a fast stop (SIGQUIT would wait for open event streams to end).
        child.kill("SIGTERM");
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

test.describe("behind an HTTPS reverse proxy (nginx)", () => {
  test.describe.configure({ mode: "serial", timeout: 120_000 });
  let server: ServerProcess;
  let nginx: Nginx;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    server = await startServerProcess({
      port: APP_PORT,
      templateDir: TEMPLATE_DIR,
      env: {
        PUBLIC_URL,
        TRUST_PROXY: "true",
        TRUST_PROXY_HOPS: "1",
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
      },
    });
    nginx = await startNginx(APP_PORT);
  });

  test.afterAll(async () => {
    await nginx?.stop();
    await server?.stop();
  });

  test("the contact form works through TLS, and the lead reaches the CRM", async ({ browser }) => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true, baseURL: PUBLIC_URL });
    // The chat app's site is out of reach here: answer for it.
    await context.route("https://wa.me/**", (route) => route.fulfill({ contentType: "text/html", body: "<p>WhatsApp</p>" }));
    const page = await context.newPage();
    const name = `Cliente Proxy ${Date.now().toString(36)}`;

    await page.goto("/contato");
    expect(page.url()).toBe(`${PUBLIC_URL}/contato`);
    await waitForHydration(page);
    await page.getByLabel("Nome").fill(name);
    await page.getByLabel("Telefone (WhatsApp)").fill("84988887777");
    await page.getByLabel("Email").fill("cliente.proxy@exemplo.com");
    await page.getByLabel("Mensagem").fill("Mensagem enviada através do proxy com TLS.");
    const [chat] = await Promise.all([page.waitForEvent("popup"), page.getByRole("button", { name: "Enviar Mensagem" }).click()]);
    await expect(page.getByText("Mensagem enviada! Redirecionando para o WhatsApp...")).toBeVisible();
    await chat.close();

    // Sign-in through the proxy too (a form POST with better-auth's origin check and a Secure cookie).
    await page.goto("/auth");
    await waitForHydration(page);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Senha", { exact: true }).fill(ADMIN.password);
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(page).toHaveURL(`${PUBLIC_URL}/crm`);
    const cookies = await context.cookies(PUBLIC_URL);
    expect(cookies.find((cookie) => cookie.name.includes("session_token"))?.secure).toBe(true);

    await page.goto("/crm/leads");
    await expect(page.getByText(name).first()).toBeVisible();
    await context.close();
  });

  test("without JavaScript, the posted form is answered by the page itself", async ({ browser }) => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true, baseURL: PUBLIC_URL, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/contato");
    await page.getByLabel("Nome").fill("Cliente Sem Script");
    await page.getByLabel("Telefone (WhatsApp)").fill("(84) 98888-7777");
    await page.getByLabel("Email").fill("sem.script@exemplo.com");
    await page.getByLabel("Mensagem").fill("Enviado sem JavaScript, pelo proxy com TLS.");
    const [response] = await Promise.all([
      page.waitForResponse((answer) => answer.request().method() === "POST"),
      page.getByRole("button", { name: "Enviar Mensagem" }).click(),
    ]);
    expect(response.status()).toBe(200);
    await expect(page.getByText("Mensagem enviada! Redirecionando para o WhatsApp...")).toBeVisible();
    await context.close();
  });

  test("a post from another site is still refused behind the proxy", async () => {
    const client = await playwrightRequest.newContext({ ignoreHTTPSErrors: true });
    const foreign = await client.post(`${PUBLIC_URL}/contato`, {
      headers: { Origin: "https://outro-site.example" },
      form: { name: "Cliente Forjado", email: "x@exemplo.com", phone: "(84) 98888-7777", message: "Mensagem de outro site." },
    });
    expect(foreign.status()).toBe(403);
    // The server's own address is not the public origin either.
    const direct = await client.post(`${server.url}/contato`, {
      headers: { Origin: server.url },
      form: { name: "Cliente Direto", email: "x@exemplo.com", phone: "(84) 98888-7777", message: "Mensagem sem passar pelo proxy." },
    });
    expect(direct.status()).toBe(403);
    await client.dispose();
  });
});
