import QRCode from "qrcode";
import { type PdfFont, startPdf } from "~/lib/pdf.server";
import type { FichaContent, Pair } from "./ficha-content";

/**
 * Draws the ficha (issue 22 item 6): one A4 page, two when the features and description need
 * it, never more (a description too long for the second page is cut, with a pointer to the site).
 *
 * Page 1: the site's name and the code, the title and place, the cover and up to three photos,
 * 'Valores' beside 'Características', then the conditions, the features and the description as
 * far as they fit. Every page ends with the broker (name, CRECI, phone, e-mail), the listing's
 * address on the site and a QR code to it, so a printed sheet always leads back to the listing.
 *
 * Fonts: DejaVu Sans, embedded (lib/pdf.server.ts). Photos arrive as JPEG already (photos.server.ts): pdfkit embeds JPEG and PNG only.
 */

export type FichaPhotos = { cover: Buffer | null; thumbs: Buffer[] };

// A4 in points, with our own margins (pdfkit's page margins are 0: see `newPage`).
const PAGE_W = 595.28;
const PAGE_H = 841.89;
const M = 36;
const W = PAGE_W - 2 * M;
const FOOTER_H = 92;
const FOOTER_TOP = PAGE_H - M - FOOTER_H;
/** The last y a block may reach before the footer. */
const BODY_END = FOOTER_TOP - 12;
export const MAX_PAGES = 2;

const PRIMARY = "#0b5f7a";
const TEXT = "#1f2933";
const MUTED = "#5b6770";
const RULE = "#d5dde2";
const PANEL = "#f2f6f8";

export const COVER_SIZE = { width: W, height: 250 };
const THUMB_GAP = 8;
export const THUMB_SIZE = { width: (W - 2 * THUMB_GAP) / 3, height: 104 };
export const MAX_THUMBS = 3;

export async function buildFichaPdf(content: FichaContent, photos: FichaPhotos, createdAt: Date): Promise<Buffer> {
  const { doc, finish } = startPdf({
    size: "A4",
    margin: 0,
    autoFirstPage: false,
    bufferPages: true,
    info: {
      Title: `Ficha do imóvel ${content.codigo} – ${content.title}`,
      Author: content.broker.name,
      Subject: content.url,
      Creator: content.siteName,
      CreationDate: createdAt,
    },
  });

  let y = M;
  const newPage = () => {
    doc.addPage({ size: "A4", margin: 0 });
    y = M;
    if (doc.bufferedPageRange().count > 1) {
      // A second sheet printed alone still says what it belongs to.
      font("Sans", 8.5, MUTED).text(`${content.siteName} · Ficha do imóvel · Código ${content.codigo} · ${content.title}`, M, y, { width: W, lineBreak: false, ellipsis: true });
      y += 14;
      doc.moveTo(M, y).lineTo(M + W, y).lineWidth(0.5).strokeColor(RULE).stroke();
      y += 12;
    }
  };
  const pageCount = () => doc.bufferedPageRange().count;
  /** Moves to a new page when `height` does not fit; false when no page is left. */
  const room = (height: number) => {
    if (y + height <= BODY_END) return true;
    if (pageCount() >= MAX_PAGES) return false;
    newPage();
    return true;
  };
  const font = (name: PdfFont, size: number, color = TEXT) => doc.font(name).fontSize(size).fillColor(color);

  newPage();

  // Header: the site's name, and what this sheet is.
  font("Sans-Bold", 12, PRIMARY).text(content.siteName, M, y, { width: W * 0.6, lineBreak: false, ellipsis: true });
  font("Sans", 9, MUTED).text(`Ficha do imóvel · Código ${content.codigo}`, M + W * 0.4, y + 2, { width: W * 0.6, align: "right", lineBreak: false });
  y += 20;
  doc.moveTo(M, y).lineTo(M + W, y).lineWidth(1).strokeColor(PRIMARY).stroke();
  y += 10;

  // Title (two lines at most), kind and place, the address when it may be shown.
  font("Sans-Bold", 17);
  const titleHeight = Math.min(doc.heightOfString(content.title, { width: W }), 2 * doc.currentLineHeight(true) + 1);
  doc.text(content.title, M, y, { width: W, height: titleHeight, ellipsis: true });
  y += titleHeight + 3;
  font("Sans", 9.5, MUTED).text(`${content.kind} · ${content.place}`, M, y, { width: W, lineBreak: false, ellipsis: true });
  y += 14;
  if (content.address) {
    font("Sans", 9.5, MUTED).text(content.address, M, y, { width: W, lineBreak: false, ellipsis: true });
    y += 14;
  }
  y += 6;

  // Photos: the cover, then up to three more in a row.
  if (photos.cover) {
    doc.image(photos.cover, M, y, { width: COVER_SIZE.width, height: COVER_SIZE.height });
    y += COVER_SIZE.height + THUMB_GAP;
  }
  if (photos.thumbs.length) {
    photos.thumbs.slice(0, MAX_THUMBS).forEach((thumb, index) => {
      doc.image(thumb, M + index * (THUMB_SIZE.width + THUMB_GAP), y, { width: THUMB_SIZE.width, height: THUMB_SIZE.height });
    });
    y += THUMB_SIZE.height + THUMB_GAP;
  }
  y += 6;

  // 'Valores' beside 'Características'.
  const colGap = 18;
  const colW = (W - colGap) / 2;
  const rowH = 15;
  const heading = (text: string, x: number, top: number, width: number) => {
    font("Sans-Bold", 10.5, PRIMARY).text(text, x, top, { width, lineBreak: false });
    doc
      .moveTo(x, top + 15)
      .lineTo(x + width, top + 15)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    return top + 20;
  };
  const pairs = (list: Pair[], x: number, top: number, width: number, firstBig: boolean) => {
    let at = top;
    list.forEach((item, index) => {
      const big = firstBig && index === 0;
      font("Sans", 9.5, MUTED).text(item.label, x, at + (big ? 3 : 0), { width: width * 0.45, lineBreak: false, ellipsis: true });
      font("Sans-Bold", big ? 13 : 9.5, big ? PRIMARY : TEXT).text(item.value, x + width * 0.42, at, {
        width: width * 0.58,
        align: "right",
        lineBreak: false,
        ellipsis: true,
      });
      at += big ? rowH + 5 : rowH;
    });
    return at;
  };
  // The conditions ('Aceita financiamento', 'Garantias: …') as tags under the values, wrapping.
  const chipH = 17;
  const chipRows = (width: number) => {
    font("Sans", 8.5);
    const rows: { text: string; x: number; width: number }[][] = [[]];
    let x = 0;
    for (const condition of content.conditions) {
      const chip = Math.min(doc.widthOfString(condition) + 14, width);
      if (x > 0 && x + chip > width) {
        rows.push([]);
        x = 0;
      }
      rows[rows.length - 1].push({ text: condition, x, width: chip });
      x += chip + 6;
    }
    return content.conditions.length ? rows : [];
  };
  const valuesHeight = (content.values.length ? 20 + content.values.length * rowH + 5 : 0) + chipRows(colW).length * (chipH + 5);
  const factsHeight = content.facts.length ? 20 + content.facts.length * rowH : 0;
  if (valuesHeight || factsHeight) {
    room(Math.max(valuesHeight, factsHeight));
    const top = y;
    let left = top;
    let right = top;
    if (content.values.length) left = pairs(content.values, M, heading("Valores", M, top, colW), colW, true) + 4;
    for (const row of chipRows(colW)) {
      for (const chip of row) {
        doc.roundedRect(M + chip.x, left, chip.width, chipH, 8).fillColor(PANEL).fill();
        font("Sans", 8.5, PRIMARY).text(chip.text, M + chip.x + 7, left + 4, { width: chip.width - 14, lineBreak: false, ellipsis: true });
      }
      left += chipH + 5;
    }
    if (content.facts.length) right = pairs(content.facts, M + colW + colGap, heading("Características", M + colW + colGap, top, colW), colW, false);
    y = Math.max(left, right) + 8;
  }

  // Features, group by group, in three columns.
  for (const group of content.features) {
    const columns = 3;
    const rows = Math.ceil(group.items.length / columns);
    const itemH = 13;
    if (!room(20 + rows * itemH + 4)) break;
    y = heading(group.label, M, y, W);
    const width = W / columns;
    group.items.forEach((item, index) => {
      const x = M + (index % columns) * width;
      const top = y + Math.floor(index / columns) * itemH;
      doc.circle(x + 3, top + 5, 1.6).fillColor(PRIMARY).fill();
      font("Sans", 9).text(item, x + 9, top, { width: width - 12, lineBreak: false, ellipsis: true });
    });
    y += rows * itemH + 8;
  }

  // The description, over what is left of this page and, if need be, the next one.
  if (content.description) {
    if (BODY_END - y < 60) room(BODY_END);
    y = heading("Descrição", M, y, W);
    const options = { width: W, lineGap: 2 } as const;
    let rest = content.description;
    for (;;) {
      font("Sans", 9.5);
      const fits = fittingPrefix(rest, (text) => doc.heightOfString(text, options) <= BODY_END - y);
      const last = pageCount() >= MAX_PAGES;
      let shown = fits;
      if (fits.length < rest.length && last) {
        const cut = (text: string) => `${text.trimEnd()}… (continua no site)`;
        shown = cut(fittingPrefix(fits, (text) => doc.heightOfString(cut(text), options) <= BODY_END - y));
      }
      doc.text(shown, M, y, options);
      rest = rest.slice(fits.length).trimStart();
      if (!rest || last) break;
      newPage();
      y = heading("Descrição (continuação)", M, y, W);
    }
  }

  // Every page: the broker and the way back to the listing; page numbers when there are two.
  const qr = QRCode.create(content.url, { errorCorrectionLevel: "M" });
  const total = pageCount();
  for (let page = 0; page < total; page++) {
    doc.switchToPage(page);
    drawFooter(doc, content, qr.modules);
    if (total > 1) font("Sans", 8, MUTED).text(`Página ${page + 1} de ${total}`, M, PAGE_H - M + 10, { width: W, align: "right", lineBreak: false });
  }

  return finish();
}

type Modules = { size: number; get(row: number, col: number): number | boolean };

function drawFooter(doc: PDFKit.PDFDocument, content: FichaContent, modules: Modules) {
  const top = FOOTER_TOP;
  doc.roundedRect(M, top, W, FOOTER_H, 6).fillColor(PANEL).fill();
  const pad = 12;
  const qrSize = FOOTER_H - 2 * pad;
  const qrX = M + W - pad - qrSize;
  drawQr(doc, modules, qrX, top + pad, qrSize);
  const x = M + pad;
  const width = qrX - x - pad;
  doc.font("Sans", 8).fontSize(8).fillColor(MUTED).text("Corretor responsável", x, top + pad, { width, lineBreak: false });
  doc.font("Sans-Bold").fontSize(11.5).fillColor(TEXT).text(content.broker.name, x, top + pad + 11, { width, lineBreak: false, ellipsis: true });
  doc
    .font("Sans")
    .fontSize(9)
    .fillColor(TEXT)
    .text(`${content.broker.creci} · ${content.broker.phone} · ${content.broker.email}`, x, top + pad + 28, { width, lineBreak: false, ellipsis: true });
  doc.font("Sans").fontSize(8).fillColor(MUTED).text("Fotos, mapa e contato no site (ou aponte a câmera para o código):", x, top + pad + 46, { width, lineBreak: false });
  doc.font("Sans").fontSize(8.5).fillColor(PRIMARY).text(content.url, x, top + pad + 58, { width, lineBreak: false, link: content.url, underline: false });
}

/** The QR code as vector squares (sharp at any zoom or printer), with its quiet zone left white. */
function drawQr(doc: PDFKit.PDFDocument, modules: Modules, x: number, y: number, size: number) {
  const quiet = 2;
  const cell = size / (modules.size + 2 * quiet);
  doc.rect(x, y, size, size).fillColor("#ffffff").fill();
  for (let row = 0; row < modules.size; row++) {
    let col = 0;
    while (col < modules.size) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.get(row, col)) col++;
      // A little overlap, so viewers draw no hairlines between neighbouring squares.
      doc.rect(x + (quiet + start) * cell, y + (quiet + row) * cell, (col - start) * cell + 0.05, cell + 0.05);
    }
  }
  doc.fillColor("#000000").fill();
}

/** The longest prefix of `text`, cut at a word, for which `fits` holds ("" when none does). */
export function fittingPrefix(text: string, fits: (prefix: string) => boolean): string {
  if (fits(text)) return text;
  const breaks: number[] = [];
  for (let index = 0; index < text.length; index++) if (/\s/.test(text[index])) breaks.push(index);
  let low = 0;
  let high = breaks.length - 1;
  let best = "";
  while (low <= high) {
    const mid = (low + high) >> 1;
    const prefix = text.slice(0, breaks[mid]);
    if (fits(prefix)) {
      best = prefix;
      low = mid + 1;
    } else high = mid - 1;
  }
  return best;
}
