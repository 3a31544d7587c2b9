// `npm run deps:layers` (decision 034): the layers read routes → features → lib/db, one way.
// Part of `npm test` (scripts/test.mjs), so CI fails on a broken rule.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment:
        "No module may reach itself again through the modules it loads. A type-only import is erased at build and " +
        "decides no load order, so it does not close a circle (features/runtime/handle.server.ts names the features' " +
        "service types); the layer rules below count type imports too.",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "below-the-root",
      comment:
        "Features, lib, db and components never import the composition root (app/runtime.server.ts) or a route: what " +
        "they need is passed in or read through features/runtime/handle.server.ts.",
      severity: "error",
      from: { path: "^app/(features|lib|db|components)/" },
      to: { path: "^app/(runtime\\.server\\.ts$|routes/|root\\.tsx$|entry\\.server\\.tsx$)" },
    },
    {
      name: "lib-and-db-below-features",
      comment: "app/lib and app/db are the bottom layer: they never import a feature.",
      severity: "error",
      from: { path: "^app/(lib|db)/" },
      to: { path: "^app/features/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^app/db/migrations/" },
    // Type-only imports are seen too (the layer rules count them).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".json"],
    },
  },
};
