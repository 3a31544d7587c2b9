// The Node this project supports (package.json's engines): Node 20's support ended in April 2026,
// so nothing here runs on it. `npm install` brings Node 24 from the registry (the `node` package,
// a peer dependency), and every npm script runs on it; see docs/decisions/010-node-24-from-the-registry.md.
export const MINIMUM_NODE = [24, 11];

export function unsupportedNodeMessage(version = process.versions.node) {
  const [major, minor] = version.split(".").map(Number);
  if (major > MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor >= MINIMUM_NODE[1])) return null;
  return (
    `Node ${version} is not supported: this project runs on Node ${MINIMUM_NODE.join(".")} or newer. ` +
    "Run it through npm (npm start, npm test, npm run cli -- …), which uses the Node 24 that " +
    "`npm install` put in node_modules, or install Node 24."
  );
}
