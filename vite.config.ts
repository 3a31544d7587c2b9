import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import fs from "node:fs";
import { defineConfig } from "vite";

// `npm run dev` runs the server code in this process: give it the .env file like `npm start` does.
if (fs.existsSync(".env")) process.loadEnvFile(".env");

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  server: {
    // The embedded database writes constantly into the data folder; watching it would reload the app.
    watch: { ignored: ["**/data/**", "**/test-results/**", "**/.tmp/**"] },
  },
  ssr: {
    // Native or Node-only packages stay outside the server bundle and load from node_modules.
    external: ["sharp", "@electric-sql/pglite", "pg"],
  },
});
