import { listSitemapProperties } from "~/features/properties/public-queries.server";
import { getRuntime } from "~/runtime.server";

const escapeXml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** /sitemap.xml: the public pages and every property still on the market. */
export async function loader() {
  const { db, env } = await getRuntime();
  const pages = ["/", "/imoveis", "/sobre", "/contato", "/privacidade"].map((path) => ({ loc: env.publicUrl + path }));
  const properties = (await listSitemapProperties(db)).map((property) => ({
    loc: `${env.publicUrl}/imoveis/${property.id}`,
    lastmod: property.updated_at,
  }));
  const urls = [...pages, ...properties]
    .map((entry) => `  <url><loc>${escapeXml(entry.loc)}</loc>${"lastmod" in entry ? `<lastmod>${entry.lastmod}</lastmod>` : ""}</url>`)
    .join("\n");
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
