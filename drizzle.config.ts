import { defineConfig } from "drizzle-kit";

// `npm run db:generate` writes a new SQL migration from app/db/schema.ts; start-up applies them.
export default defineConfig({
  dialect: "postgresql",
  schema: "./app/db/schema.ts",
  out: "./app/db/migrations",
});
