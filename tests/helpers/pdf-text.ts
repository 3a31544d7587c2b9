import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/**
 * A PDF's text as a reader's copy-paste would give it, page by page (pdfjs-dist, Mozilla's PDF
 * reader). Runs of whitespace (the no-break space after "R$" included) become one space, so tests
 * compare plain strings.
 */
export async function pdfText(bytes: Uint8Array): Promise<{ pages: string[]; text: string; info: Record<string, unknown> }> {
  const task = getDocument({ data: new Uint8Array(bytes), useSystemFonts: false });
  const document = await task.promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    const line = content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : " ") : "")).join("");
    pages.push(line.replace(/\s+/g, " ").trim());
  }
  const { info } = await document.getMetadata();
  await task.destroy();
  return { pages, text: pages.join(" "), info: (info ?? {}) as Record<string, unknown> };
}
