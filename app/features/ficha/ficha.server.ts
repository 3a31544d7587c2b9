import crypto from "node:crypto";
import type { Database } from "~/db/client.server";
import type { MediaStorage } from "~/features/media/storage.server";
import type { BrokerProfile } from "~/features/site/broker-profile";
import { consume, type Limit } from "~/lib/throttle.server";
import { fichaContent } from "./ficha-content";
import { type FichaScope, loadFichaListing } from "./ficha-data.server";
import { buildFichaPdf } from "./ficha-pdf.server";
import { fichaPhotos } from "./photos.server";

/**
 * The ficha's answer for both routes (/imoveis/:id/ficha.pdf and /crm/imoveis/:id/ficha.pdf):
 * read the listing, answer 304 when the browser's copy is current, count the request against the
 * address's limit (public route), then draw the PDF. Drawing costs sharp and pdfkit work (CPU time, not yet
 * benchmarked), so it comes last and a visitor gets at most FICHA_LIMIT of them a window.
 */

/** Fichas a visitor's address may have drawn per window (the CRM's are not counted: staff only). */
export const FICHA_LIMIT: Limit = { max: 20, windowSeconds: 600 };
/** Bump when the drawing changes, so browsers drop fichas drawn the old way. */
const FICHA_VERSION = 1;

export const FICHA_MESSAGES = {
  notFound: "Imóvel não encontrado.",
  tooMany: "Muitas fichas pedidas em pouco tempo. Tente novamente em alguns minutos.",
} as const;

export type FichaDeps = { db: Database; storage: MediaStorage; broker: BrokerProfile; publicUrl: string; ip: string };

const text = (body: string, status: number, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers } });

function etagMatches(header: string | null, etag: string) {
  if (!header) return false;
  return header.split(",").some((tag) => tag.trim() === etag || tag.trim() === "*" || tag.trim() === etag.replace(/^W\//, ""));
}

/** The listing's page on the site: what the QR code and the URL on the sheet lead to. */
export const listingUrl = (publicUrl: string, id: string) => `${publicUrl}/imoveis/${id}`;

export async function fichaResponse(request: Request, deps: FichaDeps, id: string, scope: FichaScope): Promise<Response> {
  const listing = await loadFichaListing(deps.db, id, scope);
  if (!listing) return text(FICHA_MESSAGES.notFound, 404);
  const url = listingUrl(deps.publicUrl, listing.id);
  const content = fichaContent(listing, deps.broker, url);
  // Everything the sheet shows is in `content` (photos by their immutable URLs): same content, same PDF.
  const digest = crypto
    .createHash("sha256")
    .update(JSON.stringify({ v: FICHA_VERSION, content, images: listing.images.slice(0, 4) }))
    .digest("base64url")
    .slice(0, 27);
  const etag = `W/"ficha-${digest}"`;
  const cacheHeaders = {
    ETag: etag,
    // Revalidated every time: a price change must show in the next download; a 304 costs a read.
    "Cache-Control": scope === "public" ? "public, no-cache" : "private, no-cache",
  };
  if (etagMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers: cacheHeaders });
  if (scope === "public" && !(await consume(deps.db, `ficha:address:${deps.ip}`, FICHA_LIMIT)).allowed) {
    return text(FICHA_MESSAGES.tooMany, 429, { "Retry-After": String(FICHA_LIMIT.windowSeconds) });
  }
  const photos = await fichaPhotos(deps.storage, listing.images);
  const pdf = await buildFichaPdf(content, photos, new Date(listing.updated_at));
  const fileName = `ficha-${listing.codigo.replace(/[^A-Za-z0-9-]/g, "") || "imovel"}.pdf`;
  return new Response(new Uint8Array(pdf), {
    status: 200,
    headers: {
      ...cacheHeaders,
      "Content-Type": "application/pdf",
      "Content-Length": String(pdf.length),
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
