import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { media, properties } from "~/db/schema";
import { MASTER_FILE, canonicalMediaUrl, mediaIdFromUrl } from "~/features/media/urls";
import { PHOTO_OWNERSHIP_MESSAGES } from "~/features/properties/photo-ownership.server";
import { rerenderIdle } from "~/features/media/watermark.server";
import { action as mediaAction } from "~/routes/crm-media";
import { loader as mediaLoader } from "~/routes/media";
import { action as settingsAction, loader as settingsLoader } from "~/routes/crm-settings";
import { action as propertiesAction } from "~/routes/crm-properties";
import { loader as propertyLoader } from "~/routes/property";
import { createSignedInUser, insertProperty, settle, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * Issue 22, item 5: the order of a listing's photos (the first is the cover) is saved as the
 * broker sets it, and the list may hold only photos uploaded through the CRM that no other listing
 * holds; the property page gets its video and tour as click-to-load player addresses.
 */

const BASE = "http://localhost:3000";
let ip = 0;
const context = () => ({ cspNonce: "n", clientIp: `198.51.100.${++ip % 250}` });

type Answer = { status: number; body: { ok?: boolean; message?: string; field?: string } };
async function answer(result: unknown): Promise<Answer> {
  if (result instanceof Response) return { status: result.status, body: await result.json().catch(() => ({})) };
  if (result && typeof result === "object" && "init" in result && "data" in result) {
    const { data, init } = result as { data: Answer["body"]; init: { status?: number } | null };
    return { status: init?.status ?? 200, body: data };
  }
  return { status: 200, body: result as Answer["body"] };
}

const listing = (codigo: string, images: string[]) => ({
  codigo,
  title: "Apartamento com vista para o mar",
  description: "Apartamento de teste com varanda.",
  type: "apartamento",
  purpose: "venda",
  status: "disponivel",
  featured: false,
  price: "650.000,00",
  area: "90",
  bedrooms: "3",
  bathrooms: "2",
  parking_spaces: "1",
  neighborhood: "Ponta Negra",
  city: "Natal",
  state: "RN",
  broker_partner: "",
  images,
});

describe.each(DATABASE_KINDS)("listing media on %s", (kind) => {
  let test: TestRuntime;
  let staff: TestUser;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    staff = await createSignedInUser(test.runtime, "admin");
  });
  afterAll(async () => {
    await test.stop();
  });

  async function uploaded(n: number): Promise<string[]> {
    const ids = Array.from({ length: n }, () => crypto.randomUUID());
    await test.runtime.db.insert(media).values(ids.map((id) => ({ id, width: 800, height: 600, bytes: 1 })));
    return ids.map(canonicalMediaUrl);
  }

  const save = async (body: Record<string, unknown>) => {
    const request = new Request(`${BASE}/crm/imoveis`, {
      method: "POST",
      headers: { Origin: BASE, Cookie: staff.cookie, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return answer(await settle(() => propertiesAction({ request, params: {}, context: context() } as never)));
  };
  const imagesOf = async (codigo: string) => (await test.runtime.db.select({ images: properties.images }).from(properties).where(eq(properties.codigo, codigo)))[0]?.images;

  it("saves the order the broker set, and a new order later (the first photo is the cover)", async () => {
    const [a, b, c] = await uploaded(3);
    expect(await save({ intent: "create", values: listing("ORDEM-1", [a, b, c]) })).toMatchObject({ status: 200, body: { ok: true } });
    expect(await imagesOf("ORDEM-1")).toEqual([a, b, c]);
    const [row] = await test.runtime.db.select({ id: properties.id }).from(properties).where(eq(properties.codigo, "ORDEM-1"));
    expect(await save({ intent: "update", id: row.id, values: listing("ORDEM-1", [c, a, b]) })).toMatchObject({ status: 200 });
    expect(await imagesOf("ORDEM-1")).toEqual([c, a, b]);
    const page = (await propertyLoader({ request: new Request(`${BASE}/imoveis/${row.id}`), params: { id: row.id }, context: context() } as never)) as {
      property: { images: string[] };
    };
    expect(page.property.images[0]).toBe(c);
  });

  it("refuses a photo never uploaded, another listing's photo and a repeated one, with 400 and nothing saved", async () => {
    const [own, other] = await uploaded(2);
    await insertProperty(test.runtime, { codigo: "DONA-1", images: [other] });
    const never = canonicalMediaUrl(crypto.randomUUID());
    const cases: [string[], string][] = [
      [[own, never], PHOTO_OWNERSHIP_MESSAGES.notUploaded],
      [[own, other], PHOTO_OWNERSHIP_MESSAGES.foreign("DONA-1")],
      [[own, own], PHOTO_OWNERSHIP_MESSAGES.repeated],
    ];
    for (const [images, message] of cases) {
      expect(await save({ intent: "create", values: listing("RECUSA-1", images) })).toEqual({ status: 400, body: { ok: false, message, field: "images" } });
    }
    expect(await imagesOf("RECUSA-1")).toBeUndefined();

    // An edit may keep its own photos but not take another listing's.
    const mine = await insertProperty(test.runtime, { codigo: "EDITA-1", images: [own] });
    expect(await save({ intent: "update", id: mine.id, values: listing("EDITA-1", [own, other]) })).toMatchObject({
      status: 400,
      body: { message: PHOTO_OWNERSHIP_MESSAGES.foreign("DONA-1") },
    });
    expect(await imagesOf("EDITA-1")).toEqual([own]);
    expect(await imagesOf("DONA-1")).toEqual([other]);
  });

  it("gives the property page its video and tour as player addresses, and nothing when there are none", async () => {
    const withMedia = await insertProperty(test.runtime, {
      codigo: "VIDEO-1",
      video_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      tour_url: "https://my.matterport.com/show/?m=SxQL3iGyoDo",
    });
    const plain = await insertProperty(test.runtime, { codigo: "VIDEO-2" });
    const load = async (id: string) =>
      ((await propertyLoader({ request: new Request(`${BASE}/imoveis/${id}`), params: { id }, context: context() } as never)) as { embeds: unknown[] }).embeds;
    expect(await load(withMedia.id)).toEqual([
      { kind: "video", src: "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1", label: "Assistir ao vídeo", title: expect.stringContaining("Vídeo do imóvel") },
      { kind: "tour", src: "https://my.matterport.com/show/?m=SxQL3iGyoDo", label: "Abrir tour 360°", title: expect.stringContaining("Tour 360°") },
    ]);
    expect(await load(plain.id)).toEqual([]);
  });

  describe("watermark", () => {
    const upload = async (purpose: "listing" | "portrait") => {
      const body = new FormData();
      const jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 90, g: 110, b: 130 } } }).jpeg({ quality: 95 }).toBuffer();
      body.append("file", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "foto.jpg");
      body.append("purpose", purpose);
      const request = new Request(`${BASE}/crm/midia`, { method: "POST", body, headers: { Origin: BASE, Cookie: staff.cookie } });
      const result = (await settle(() => mediaAction({ request, params: {}, context: context() } as never))) as { url: string };
      return mediaIdFromUrl(result.url)!;
    };
    const file = async (id: string, name: string) => (await test.runtime.storage.get(`${id}/${name}`))!.body;
    const setting = async (fields: Record<string, string>) => {
      const request = new Request(`${BASE}/crm/configuracoes`, {
        method: "POST",
        headers: { Origin: BASE, Cookie: staff.cookie, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "watermark", ...fields }).toString(),
      });
      return answer(await settle(() => settingsAction({ request, params: {}, context: context() } as never)));
    };
    /** Mean difference per channel in the bottom-right corner of two renders of the 800 px size. */
    const cornerDifference = async (a: Buffer, b: Buffer) => {
      const region = { left: 360, top: 440, width: 400, height: 80 };
      const [x, y] = await Promise.all([a, b].map((body) => sharp(body).extract(region).removeAlpha().raw().toBuffer()));
      return x.reduce((sum, value, index) => sum + Math.abs(value - y[index]), 0) / x.length;
    };

    it("is off by default, marks new listing photos once on (never portraits), and re-renders saved photos when it changes", async () => {
      const settings = (await settingsLoader({ request: new Request(`${BASE}/crm/configuracoes`, { headers: { Cookie: staff.cookie } }), params: {}, context: context() } as never)) as {
        watermark: unknown;
      };
      expect(settings.watermark).toEqual({ enabled: false, text: "" });

      const before = await upload("listing");
      const listingRow = await insertProperty(test.runtime, { codigo: "MARCA-1", images: [canonicalMediaUrl(before)] });
      expect(listingRow.id).toBeTruthy();
      const plain800 = await file(before, "800.webp");
      const master = await file(before, MASTER_FILE);

      expect(await setting({ enabled: "on", text: "x".repeat(61) })).toMatchObject({ status: 400, body: { ok: false, message: expect.stringMatching(/no máximo 60/) } });
      expect(await setting({ enabled: "on", text: "Imobiliária Teste" })).toMatchObject({ status: 200, body: { ok: true } });
      await rerenderIdle();

      // The saved photo's public size now carries the mark; its master is byte-identical.
      const rerendered = await file(before, "800.webp");
      expect(await cornerDifference(plain800, rerendered)).toBeGreaterThan(5);
      expect((await file(before, MASTER_FILE)).equals(master)).toBe(true);

      // A new upload is marked at once; a portrait never is.
      const marked = await upload("listing");
      const portrait = await upload("portrait");
      expect(await cornerDifference(await file(portrait, "800.webp"), await file(marked, "800.webp"))).toBeGreaterThan(5);
      expect((await file(portrait, MASTER_FILE)).equals(await file(marked, MASTER_FILE))).toBe(true);

      // Off again: the saved photo's public size goes back to the un-marked render.
      expect(await setting({ text: "Imobiliária Teste" })).toMatchObject({ status: 200 });
      await rerenderIdle();
      expect(await cornerDifference(plain800, await file(before, "800.webp"))).toBeLessThan(1);

      // The master is never served.
      const served = (await mediaLoader({ request: new Request(`${BASE}/media/${before}/${MASTER_FILE}`), params: { id: before, file: MASTER_FILE }, context: context() } as never)) as Response;
      expect(served.status).toBe(404);
    });
  });
});
