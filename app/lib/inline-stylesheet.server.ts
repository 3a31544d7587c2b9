import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "./paths.server";

const cache = new Map<string, string | undefined>();

/**
 * The text of a built stylesheet (`/assets/app-….css`) for writing it inline, read once per
 * process. Undefined when it is not a built asset on disk (the Vite dev server), and the page
 * links it instead.
 */
export function builtStylesheetText(href: string): string | undefined {
  if (cache.has(href)) return cache.get(href);
  let text: string | undefined;
  if (/^\/assets\/[\w.-]+\.css$/.test(href)) {
    try {
      // "</style" cannot occur in our CSS, but never let a file end the element early.
      text = fs.readFileSync(path.join(projectRoot(), "build/client", href.slice(1)), "utf8").replace(/<\/style/gi, "<\\/style");
    } catch {
      text = undefined;
    }
  }
  cache.set(href, text);
  return text;
}
