import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { type Plugin, defineConfig } from "vite";

// `npm run dev` runs the server code in this process: give it the .env file like `npm start` does.
if (fs.existsSync(".env")) process.loadEnvFile(".env");

const COMPRESSIBLE_FILE = /\.(js|mjs|css|html|svg|json|webmanifest|xml|txt|map)$/;

/**
 * Writes .br and .gz beside every text file of the browser build, once, at the best quality:
 * the server sends them as they are (serveStatic's precompressed option) instead of compressing
 * the same file on every request. A copy that saves nothing is not written.
 */
function precompress(): Plugin {
  let outDir = "";
  const brotli = promisify(zlib.brotliCompress);
  const gzip = promisify(zlib.gzip);
  return {
    name: "precompress-client-files",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = fs.readdirSync(outDir, { recursive: true, encoding: "utf8" }).filter((file) => COMPRESSIBLE_FILE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const body = fs.readFileSync(full);
          if (body.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
            gzip(body, { level: 9 }),
          ]);
          if (br.length < body.length) fs.writeFileSync(`${full}.br`, br);
          if (gz.length < body.length) fs.writeFileSync(`${full}.gz`, gz);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), precompress()],
  resolve: { tsconfigPaths: true },
  build: {
    rolldownOptions: {
      output: {
        // The small modules every public page uses (UI primitives, helpers, navbar, footer) go
        // into one chunk with React and React Router, which every page loads anyway: a dozen tiny
        // files cost more than one (public JS budget, docs/decisions/003). On-demand code (form
        // schemas, dialogs, toasts) and the CRM's own code stay in their own chunks.
        manualChunks(id: string) {
          const core =
            /[\\/]app[\\/](components[\\/](ui[\\/](button|icon|input|label|native-select|textarea|badge|card|spinner)|icons[\\/])|lib[\\/](utils|format|nonce|seo|phone|form-data|hooks[\\/])|db[\\/]values|features[\\/](site[\\/]|media[\\/]urls|properties[\\/](labels|filters|components[\\/]property-type-options)))/;
          return core.test(id) ? "app-core" : undefined;
        },
      },
    },
  },
  server: {
    // The embedded database writes constantly into the data folder; watching it would reload the app.
    watch: { ignored: ["**/data/**", "**/test-results/**", "**/.tmp/**"] },
  },
  ssr: {
    // Native or Node-only packages stay outside the server bundle and load from node_modules.
    external: ["sharp", "@electric-sql/pglite", "pg"],
  },
});
