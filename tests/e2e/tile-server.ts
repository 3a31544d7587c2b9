import http from "node:http";
import sharp from "sharp";

/**
 * The map tiles of the browser tests (issue 22, item 4): a tiny tile server the test run starts
 * itself (serve.ts), so no test reaches OpenStreetMap or any other host. Every /{z}/{x}/{y}.png is
 * the same light 256×256 PNG; anything else is 404.
 */
export const E2E_TILE_PORT = 3290;
export const E2E_TILE_URL = `http://127.0.0.1:${E2E_TILE_PORT}/{z}/{x}/{y}.png`;

export async function startTileServer(port = E2E_TILE_PORT): Promise<http.Server> {
  const tile = await sharp({ create: { width: 256, height: 256, channels: 3, background: "#e8efe6" } }).png().toBuffer();
  const server = http.createServer((request, response) => {
    if (!/^\/\d{1,2}\/\d+\/\d+\.png$/.test(request.url ?? "")) {
      response.statusCode = 404;
      response.end();
      return;
    }
    response.writeHead(200, { "Content-Type": "image/png", "Content-Length": tile.length, "Cache-Control": "public, max-age=3600" });
    response.end(tile);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return server;
}
