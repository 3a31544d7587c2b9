import { count, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { media, properties } from "~/db/schema";
import { canonicalMediaUrl, mediaFileNames, mediaIdFromUrl } from "~/features/media/urls";
import { seedDemoIfEmpty } from "~/features/properties/seed/seed.server";
import { loader as mediaLoader } from "~/routes/media";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";

// The seed renders ~50 photos through the real pipeline: once, on the embedded database.
describe("first start: demo seed through the media pipeline", () => {
  let test: TestRuntime;
  beforeAll(async () => {
    test = await startTestRuntime("pglite");
    await seedDemoIfEmpty(test.runtime, () => {});
  }, 180_000);
  afterAll(async () => {
    await test.stop();
  });

  it("seeds at least 12 listings of every type and both purposes, some featured", async () => {
    const rows = await test.runtime.db.select().from(properties);
    expect(rows.length).toBeGreaterThanOrEqual(12);
    expect(new Set(rows.map((row) => row.type))).toEqual(new Set(["casa", "apartamento", "terreno", "ponto_comercial"]));
    expect(new Set(rows.map((row) => row.purpose))).toEqual(new Set(["venda", "aluguel"]));
    expect(rows.filter((row) => row.featured).length).toBeGreaterThanOrEqual(3);
    expect(new Set(rows.map((row) => row.city))).toEqual(new Set(["Natal", "Parnamirim"]));
    for (const row of rows) expect(row.images.length).toBeGreaterThanOrEqual(3);
  });

  it("fills issue 22's details as a broker in Natal would: condomínio R$ 350–1.800, IPTU, suítes, features", async () => {
    const rows = await test.runtime.db.select().from(properties);
    const flats = rows.filter((row) => row.type === "apartamento");
    for (const flat of flats) {
      expect(flat.condo_fee, flat.codigo).toBeGreaterThanOrEqual(350);
      expect(flat.condo_fee, flat.codigo).toBeLessThanOrEqual(1800);
      expect(flat.iptu_yearly, flat.codigo).toBeGreaterThan(0);
      expect(flat.features.length, flat.codigo).toBeGreaterThanOrEqual(5);
    }
    expect(rows.filter((row) => row.suites !== null).length).toBeGreaterThanOrEqual(8);
    expect(rows.filter((row) => row.purpose === "aluguel").every((row) => row.rental_guarantees.length > 0)).toBe(true);
    expect(rows.every((row) => row.latitude !== null && !row.display_address)).toBe(true);
  });

  it("stores every size of every photo in the media storage", async () => {
    const rows = await test.runtime.db.select({ images: properties.images }).from(properties);
    const urls = rows.flatMap((row) => row.images);
    const [{ stored }] = await test.runtime.db.select({ stored: count() }).from(media);
    expect(stored).toBe(urls.length);
    for (const url of urls.slice(0, 5)) {
      const id = mediaIdFromUrl(url)!;
      expect(url).toBe(canonicalMediaUrl(id));
      for (const file of mediaFileNames()) expect(await test.runtime.storage.get(`${id}/${file}`)).not.toBeNull();
    }
  });

  it("does not seed again, not even after the broker deleted every listing", async () => {
    expect(await seedDemoIfEmpty(test.runtime, () => {})).toBe(false);
    await test.runtime.db.execute(sql`delete from properties`);
    expect(await seedDemoIfEmpty(test.runtime, () => {})).toBe(false);
    const [{ left }] = await test.runtime.db.select({ left: count() }).from(properties);
    expect(left).toBe(0);
  });

  it("serves photos with immutable caching, and 404 for anything else", async () => {
    const [{ id }] = await test.runtime.db.select({ id: media.id }).from(media).limit(1);
    const ok = (await mediaLoader({ params: { id, file: "400.webp" } } as never)) as Response;
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Content-Type")).toBe("image/webp");
    expect(ok.headers.get("Cache-Control")).toContain("immutable");
    const preview = (await mediaLoader({ params: { id, file: "og.jpg" } } as never)) as Response;
    expect(preview.headers.get("Content-Type")).toBe("image/jpeg");

    for (const params of [
      { id, file: "999.webp" },
      { id: "..", file: "400.webp" },
      { id: "00000000-0000-0000-0000-000000000000", file: "400.webp" },
    ]) {
      expect(((await mediaLoader({ params } as never)) as Response).status).toBe(404);
    }
  });
});
