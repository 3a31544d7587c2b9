import { measurePage } from "../scripts/measure-js.mjs";
import { ms, percentile, startServer } from "./helpers";

/** Server render time of public pages (sequential requests) and the JavaScript each ships. */
const server = await startServer(3301);
try {
  const paths = ["/", "/imoveis", "/imoveis?tipo=apartamento&bairro=ponta"];
  const html = await (await fetch(server.url + "/imoveis")).text();
  const detail = /href="(\/imoveis\/[0-9a-f-]{36})"/.exec(html)?.[1];
  if (detail) paths.push(detail);
  for (const path of paths) {
    for (let i = 0; i < 5; i++) await (await fetch(server.url + path)).text(); // warm up
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      await (await fetch(server.url + path)).text();
      times.push(performance.now() - started);
    }
    const js = await measurePage(server.url, path);
    console.log(
      `${path.padEnd(48)} render median ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}; JS ${(js.gzipped / 1024).toFixed(1)} KB gzip`,
    );
  }
} finally {
  await server.stop();
}
