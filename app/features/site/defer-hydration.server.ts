import { Transform } from "node:stream";

/*
 * The page paints first; its JavaScript downloads after the window's load event.
 *
 * React Router's <Scripts> puts ≈ 110 KB (gzipped) of module preloads into <head> and an inline
 * module script whose static imports fetch the same files. Chrome fetches both at high priority
 * as soon as the HTML arrives, so on slow 4G the first paint shares the line with all of it, and
 * Lighthouse's model of the page counts every high-priority script as blocking the largest paint
 * (LCP 1.9–2.1 s measured on every public page, issue 10). The pages are complete HTML (links,
 * plain GET/POST forms work before hydration), so hydration can wait a moment.
 *
 * rewriteBootstrap turns that module script into one that first waits for the load event and a
 * frame, then adds the same modulepreload links and imports the same modules with import():
 * same files, same order of evaluation, same globals, only later. It stays the same element
 * (React hydrates it as before; its text differs, which <Scripts> tells React to accept), with
 * its nonce; a cached page's CSP hashes its final text.
 */

const MODULE_SCRIPT = /(<script[^>]*? type="module" async="">)([\s\S]*?)(<\/script>)/;
const MODULE_PRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*>/g;
// <Scripts> writes each static import on a line of its own.
const STATIC_IMPORT = /^import\s*(?:\*\s*as\s+([\w$]+)\s+from\s*)?("[^"]+");?/gm;

export function rewriteBootstrap(html: string): string {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return html;
  const before = html.slice(0, script.index);
  const after = html.slice(script.index + script[0].length);

  const preloads: string[] = [];
  const head = before.replace(MODULE_PRELOAD, (_tag, href: string) => {
    preloads.push(href);
    return "";
  });

  const imports: { name?: string; url: string }[] = [];
  const body = script[2].replace(STATIC_IMPORT, (_statement, name: string | undefined, url: string) => {
    imports.push({ name, url: JSON.parse(url) as string });
    return "";
  });
  // A bare import() (the client entry) stays as it is: it already runs after everything above.
  if (imports.length === 0 && preloads.length === 0) return html;

  const names = imports.map((entry, index) => entry.name ?? `_${index}`);
  const prelude =
    `await new Promise((r) => document.readyState === "complete" ? r() : addEventListener("load", () => r(), { once: true }));` +
    // One frame later the page has painted; a hidden tab has no frames, hence the timer.
    `await new Promise((r) => { requestAnimationFrame(() => setTimeout(r)); setTimeout(r, 100); });` +
    `for (const href of ${JSON.stringify(preloads)}) { const link = document.createElement("link"); link.rel = "modulepreload"; link.href = href; document.head.append(link); }` +
    `const [${names.join(", ")}] = await Promise.all([${imports.map((entry) => `import(${JSON.stringify(entry.url)})`).join(", ")}]);`;
  return head + script[1] + prelude + body + script[3] + after;
}

/**
 * The HTML stream with rewriteBootstrap applied: holds the shell until the module script has
 * passed (it closes <body>'s React content; the shell is written at once anyway), then streams.
 */
export function deferHydration(): Transform {
  let pending: Buffer[] = [];
  let done = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (done) return callback(null, chunk);
      pending.push(Buffer.from(chunk));
      const buffer = Buffer.concat(pending);
      const start = buffer.indexOf(' type="module" async="">');
      const end = start === -1 ? -1 : buffer.indexOf("</script>", start);
      if (end === -1) return callback();
      done = true;
      pending = [];
      // Cut after the script's end tag: the rest may end inside a multi-byte character.
      const cut = end + "</script>".length;
      callback(null, Buffer.concat([Buffer.from(rewriteBootstrap(buffer.subarray(0, cut).toString("utf8")), "utf8"), buffer.subarray(cut)]));
    },
    flush(callback) {
      if (!done && pending.length) this.push(Buffer.concat(pending));
      callback();
    },
  });
}
