import type { ServerBuild } from "react-router";
import * as entry from "~/entry.server";

/**
 * A React Router server build holding only the given routes (under a root that renders
 * nothing), for tests that put the real Hono server (server/app.ts) in front of resource routes:
 * the requests go through the same middleware as in production without building the app.
 */
export function resourceRoutesBuild(routes: Record<string, { path: string; module: unknown }>, clientDir: string): ServerBuild {
  return {
    entry: { module: entry },
    routes: {
      root: { id: "root", path: "", module: { default: () => null } },
      ...Object.fromEntries(Object.entries(routes).map(([id, route]) => [id, { id, parentId: "root", ...route }])),
    },
    assets: { entry: { module: "/assets/entry.js", imports: [] }, routes: {}, url: "/assets/manifest.js", version: "test" },
    publicPath: "/",
    assetsBuildDirectory: clientDir,
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
    basename: "/",
  } as unknown as ServerBuild;
}
