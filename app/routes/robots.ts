import { getEnv } from "~/lib/env.server";

/** /robots.txt: the CRM, the sign-in page and the WhatsApp redirect (decision 028) are not for search engines. */
export function loader() {
  const body = ["User-agent: *", "Allow: /", "Disallow: /crm", "Disallow: /auth", "Disallow: /agendar-visita", "Disallow: /whatsapp", "", `Sitemap: ${getEnv().publicUrl}/sitemap.xml`, ""].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
