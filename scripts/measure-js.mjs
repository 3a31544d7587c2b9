// The JavaScript each page ships, gzipped, as a browser would download it: every script and
// modulepreload in the server's HTML. Usage: node scripts/measure-js.mjs [baseUrl] [paths...]
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

export async function measurePage(baseUrl, pagePath, clientDir = "build/client") {
  const html = await (await fetch(baseUrl + pagePath)).text();
  const files = new Set();
  for (const match of html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/assets\/[^"]+\.js)"/g)) files.add(match[1]);
  // React Router names the route modules and their imports in its inline manifest too.
  for (const match of html.matchAll(/"(\/assets\/[^"\\]+\.js)\\?"/g)) files.add(match[1]);
  // Route modules are also imported from the inline manifest/entry script.
  for (const match of html.matchAll(/import\s*(?:\*\s*as\s*\w+\s*from\s*)?"(\/assets\/[^"]+\.js)"/g)) files.add(match[1]);
  let gzipped = 0;
  for (const file of files) {
    gzipped += zlib.gzipSync(fs.readFileSync(path.join(clientDir, file)), { level: 9 }).length;
  }
  return { path: pagePath, files: [...files], gzipped };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [base = "http://localhost:3000", ...paths] = process.argv.slice(2);
  for (const pagePath of paths.length ? paths : ["/", "/imoveis", "/sobre", "/contato"]) {
    const result = await measurePage(base, pagePath);
    console.log(`${(result.gzipped / 1024).toFixed(1).padStart(6)} KB  ${pagePath}  (${result.files.length} files)`);
  }
}
