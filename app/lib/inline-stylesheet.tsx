import { createContext, useContext, type ReactNode } from "react";

/**
 * The site's stylesheet, written into the page's <head> instead of linked (issue 10's LCP goal):
 * on slow 4G a linked stylesheet costs the first paint one more round trip after the HTML, and
 * competes for the connection with the scripts. The whole sheet is small (about 9 KB gzipped),
 * so it is the critical CSS.
 *
 * React 19 treats `<style href precedence>` as a hoisted style resource: the server writes
 * `<style data-href=… data-precedence=…>` at the top of <head>, and the browser's React adopts
 * that element by its `data-href` instead of rendering it again, so the CSS text never has to
 * travel in the JavaScript. Where the server has no text (the Vite dev server), the ordinary
 * <link> is used.
 */
const InlineStylesheetContext = createContext<string | undefined>(undefined);

export function InlineStylesheetProvider({ css, children }: { css: string | undefined; children: ReactNode }) {
  return <InlineStylesheetContext.Provider value={css}>{children}</InlineStylesheetContext.Provider>;
}

/** In the browser: whether the server wrote this stylesheet inline (read once, at hydration). */
let inlinedInDocument: boolean | undefined;
function isInlinedInDocument(href: string): boolean {
  inlinedInDocument ??= document.querySelector(`style[data-href="${CSS.escape(href)}"]`) !== null;
  return inlinedInDocument;
}

export function Stylesheet({ href }: { href: string }) {
  const css = useContext(InlineStylesheetContext);
  const inline = typeof document === "undefined" ? css !== undefined : isInlinedInDocument(href);
  if (inline) return <style href={href} precedence="default" dangerouslySetInnerHTML={{ __html: css ?? "" }} />;
  return <link rel="stylesheet" href={href} precedence="default" />;
}
