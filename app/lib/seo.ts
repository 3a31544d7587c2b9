import type { MetaDescriptor } from "react-router";

/**
 * A page's title, description, canonical URL and Open Graph tags in one call: what Google and
 * WhatsApp's preview read (WhatsApp runs no JavaScript, so these come in the server's HTML).
 */
export function pageMeta(options: {
  title: string;
  description: string;
  /** Absolute URL of this page (PUBLIC_URL + path). */
  url: string;
  siteName: string;
  /** Absolute URL of a 1200×630 image. */
  image?: string;
  imageAlt?: string;
  type?: "website" | "article";
  noindex?: boolean;
}): MetaDescriptor[] {
  const tags: MetaDescriptor[] = [
    { title: options.title },
    { name: "description", content: options.description },
    { tagName: "link", rel: "canonical", href: options.url },
    { property: "og:type", content: options.type ?? "website" },
    { property: "og:site_name", content: options.siteName },
    { property: "og:locale", content: "pt_BR" },
    { property: "og:title", content: options.title },
    { property: "og:description", content: options.description },
    { property: "og:url", content: options.url },
    { name: "twitter:card", content: options.image ? "summary_large_image" : "summary" },
  ];
  if (options.image) {
    tags.push(
      { property: "og:image", content: options.image },
      { property: "og:image:width", content: "1200" },
      { property: "og:image:height", content: "630" },
      { property: "og:image:type", content: "image/jpeg" },
      { property: "og:image:alt", content: options.imageAlt ?? options.title },
    );
  }
  if (options.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}
