import { serve } from "@hono/node-server";
import { Hono } from "hono";

/** The ceiling: bare Hono on this machine answering a fixed 12 KB page (the size of a list page's first screen). */
const page = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Teto</title></head><body>${"<p>Apartamento com vista para o mar em Ponta Negra, Natal.</p>".repeat(190)}</body></html>`;
const app = new Hono();
app.get("*", (c) => c.html(page));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: "127.0.0.1" }, () => console.log("ready"));
