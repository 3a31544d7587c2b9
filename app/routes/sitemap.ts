import { sitemapNeighbourhoodSlugs } from "~/features/neighbourhoods/queries.server";
import { sitemapProperties } from "~/features/properties/public-queries.server";
import { errorFields, logger } from "~/lib/logger.server";
import { getRuntime } from "~/runtime.server";

const escapeXml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const urlEntry = (loc: string, lastmod?: string) =>
  `  <url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>\n`;

/**
 * /sitemap.xml: the public pages and every property still on the market. Streamed a batch of
 * listings at a time: an agency's thousands of listings never sit in memory as one string.
 */
export async function loader() {
  const { db, env } = await getRuntime();
  // The neighbourhood pages (decision 021): tens of slugs, read before the first byte goes out.
  const neighbourhoods = (await sitemapNeighbourhoodSlugs(db)).map((slug) => `/imoveis/bairro/${slug}`);
  const pages = ["/", "/imoveis", "/imoveis/bairros", ...neighbourhoods, "/sobre", "/contato", "/privacidade"];
  const encoder = new TextEncoder();
  const batches = sitemapProperties(db);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        encoder.encode(
          `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${pages.map((path) => urlEntry(env.publicUrl + path)).join("")}`,
        ),
      );
    },
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) {
          controller.enqueue(encoder.encode("</urlset>\n"));
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(next.value.map((property) => urlEntry(`${env.publicUrl}/imoveis/${property.id}`, property.updated_at)).join("")));
      } catch (error) {
        // The status line is gone already: end the body short, so a crawler sees broken XML and retries.
        logger("sitemap").error({ ...errorFields(error) }, "sitemap could not be completed");
        controller.error(error);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
