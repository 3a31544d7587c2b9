import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import PDFDocument from "pdfkit";

/**
 * A pdfkit document as the ficha (decision 020) and the printable proposal (issue 24) start it:
 * pdfkit's standard 14 fonts cannot write 'ã' or 'ç' properly (WinAnsi only, no ToUnicode for text
 * extraction), so DejaVu Sans (dejavu-fonts-ttf) is embedded as "Sans" and "Sans-Bold", subset to
 * the glyphs used.
 */

const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | undefined;
const loadFonts = () =>
  (fonts ??= {
    regular: readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf")),
    bold: readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf")),
  });

export type PdfFont = "Sans" | "Sans-Bold";

/** A new document with the fonts registered; `finish()` ends it and gives its bytes. */
export function startPdf(options: PDFKit.PDFDocumentOptions): { doc: PDFKit.PDFDocument; finish: () => Promise<Buffer> } {
  const { regular, bold } = loadFonts();
  const doc = new PDFDocument(options);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  doc.registerFont("Sans", regular);
  doc.registerFont("Sans-Bold", bold);
  const finish = async () => {
    doc.end();
    await finished;
    return Buffer.concat(chunks);
  };
  return { doc, finish };
}
