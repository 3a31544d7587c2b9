import { expect, request as playwrightRequest, test } from "@playwright/test";
import { type Nginx, startNginx } from "../helpers/nginx";
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

/** nginx ending TLS in front of the one app server, as the README's single-server configuration. */
function startNginxForApp(upstreamPort: number): Promise<Nginx> {
  return startNginx({
    probeUrl: `${PUBLIC_URL}/robots.txt`,
    httpBlock: (dir) => `
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
  }`,
  });
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
    nginx = await startNginxForApp(APP_PORT);
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
