import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import fs from "node:fs";
import { defineConfig } from "vite";

// `npm run dev` runs the server code in this process: give it the .env file like `npm start` does.
if (fs.existsSync(".env")) process.loadEnvFile(".env");

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
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
