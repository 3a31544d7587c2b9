import { securityHeaders } from "~/lib/security-headers";
import { isPropertyPagePath } from "./embeds";
import { EMBED_ORIGINS } from "./media-links";

/**
 * The CSP's frame-src (issue 22, item 5): only a property page (`/imoveis/<uuid>`) may frame
 * anything, and only the players and tours media-links.ts accepts. Every other page keeps
 * default-src 'self' for frames.
 */
export function embedFrameSources(path: string | undefined): readonly string[] | undefined {
  return path && isPropertyPagePath(path) ? EMBED_ORIGINS : undefined;
}

/** securityHeaders for the page at `path`, as the production server asks for them. */
export function pageSecurityHeaders(options: Parameters<typeof securityHeaders>[0] & { path?: string }): Record<string, string> {
  const { path, ...rest } = options;
  return securityHeaders({ ...rest, frameSources: rest.frameSources ?? embedFrameSources(path) });
}
