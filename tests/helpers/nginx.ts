import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { request as playwrightRequest } from "@playwright/test";

/**
 * A real nginx (Debian package) in the foreground for browser tests, every path in a temporary
 * folder (no root-only files), with a self-signed certificate for localhost made by openssl
 * (never a file from the repository): `dir/cert.pem`, `dir/key.pem`.
 */
export type Nginx = { process: ChildProcess; dir: string; log: () => string; stop(): Promise<void> };

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

/**
 * Starts nginx with `httpBlock(dir)` inside its `http { }` (upstreams and servers; `dir` holds the
 * certificate) and resolves once `probeUrl` answers 2xx through it.
 */
export async function startNginx(options: { httpBlock: (dir: string) => string; probeUrl: string }): Promise<Nginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nginx-test-"));
  makeCertificate(dir);
  const config = `
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
${process.getuid?.() === 0 ? "user root;" : ""}
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${options.httpBlock(dir)}
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
      const answered = await client.get(options.probeUrl).then((response) => response.ok(), () => false);
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
