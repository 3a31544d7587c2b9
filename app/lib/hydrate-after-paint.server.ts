/**
 * Starts the page's JavaScript after its first paint (issue 10's LCP goal; see
 * docs/decisions/008-first-paint-before-javascript.md).
 *
 * React Router's <Scripts> writes a `<link rel="modulepreload">` per JavaScript file (React
 * hoists them into <head>) and a module script whose static imports fetch the route modules.
 * So ~110 KB of JavaScript starts downloading while the HTML is still arriving, and on a slow
 * connection shares the bandwidth with it; Lighthouse's slow-4G estimate counts every request
 * started before the largest paint against it, which kept its LCP near 2 s on every page.
 *
 * The page needs none of it to be read and used (server-rendered; forms work without
 * JavaScript). This rewrites the finished HTML so that the same files are requested, in the same
 * order and all at once, one frame later: the preload links are taken out of <head>, and the
 * module script first waits for a paint, then adds the same preload links (every file downloads
 * at once), evaluates the files one per task (the entry last), and imports the route modules
 * before React Router's own bootstrap code runs unchanged. The cost is one frame (≈16 ms) before
 * hydration starts (at most 200 ms in a tab opened in the background), plus a few milliseconds
 * of yielding between files.
 *
 * Pure string work on the rendered page; a page that does not have the expected shape (another
 * React Router version) is returned unchanged, so the worst case is the old behaviour.
 */

const PRELOAD_LINK = /<link rel="modulepreload"[^>]*?\shref="([^"]+)"[^>]*\/?>/g;
const MODULE_SCRIPT = /(<script\b[^>]*\btype="module"[^>]*>)([\s\S]*?)(<\/script>)/;
const STATIC_IMPORT = /^\s*import \* as ([A-Za-z_$][\w$]*) from ("[^"\n]+");\s*$/gm;
const ENTRY_IMPORT = /import\(("[^"\n]+")\);?\s*$/;

export function hydrateAfterPaint(html: string): string {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return html;
  const imports = [...script[2].matchAll(STATIC_IMPORT)].map((match) => ({ name: match[1], url: match[2] }));
  if (imports.length === 0) return html;

  const preloads: string[] = [];
  const withoutPreloads = html.slice(0, script.index).replace(PRELOAD_LINK, (_tag, href: string) => {
    preloads.push(href);
    return "";
  });
  const rest = script[2].replace(STATIC_IMPORT, "");
  const entry = ENTRY_IMPORT.exec(rest)?.[1];
  const entryHref = entry ? (JSON.parse(entry) as string) : null;
  // Every file but the entry (React DOM and the hydration), which the bootstrap imports last.
  const dependencies = preloads.filter((href) => href !== entryHref);
  const prologue = [
    // After the next paint; a tab opened in the background paints nothing, hence the timer.
    "await new Promise((resolve) => { requestAnimationFrame(() => setTimeout(resolve, 0)); setTimeout(resolve, 200); });",
    `for (const href of ${JSON.stringify(preloads)}) { const link = document.createElement("link"); link.rel = "modulepreload"; link.href = href; document.head.append(link); }`,
    // One file evaluated per task: all at once they made one long task (the shared chunk alone
    // took 24–48 ms here, 4× that on Lighthouse's phone); one at a time, the browser paints and
    // answers input between them. Dependencies come first in this list, so each import
    // evaluates little more than its own file.
    `for (const href of ${JSON.stringify(dependencies)}) { await import(href); await new Promise((resolve) => setTimeout(resolve, 0)); }`,
    `const [${imports.map((i) => i.name).join(", ")}] = await Promise.all([${imports.map((i) => `import(${i.url})`).join(", ")}]);`,
  ].join("\n");
  return withoutPreloads + script[1] + prologue + rest + script[3] + html.slice(script.index + script[0].length);
}
