import { count, eq } from "drizzle-orm";
import { app_meta, properties } from "~/db/schema";
import { storeImage } from "~/features/media/pipeline.server";
import type { Runtime } from "~/features/runtime/handle.server";
import { renderDemoPhoto } from "./demo-photos.server";
import { DEMO_DETAILS } from "./demo-details";
import { DEMO_PROPERTIES } from "./demo-properties";

const SEEDED_KEY = "demo_seeded_at";

/**
 * Seeds the demo listings on a first start: only when there are no properties and the demo was
 * never seeded before (a broker who deleted the demo listings does not get them back).
 */
export async function seedDemoIfEmpty(
  runtime: Pick<Runtime, "db" | "storage">,
  log: (message: string) => void,
): Promise<boolean> {
  const { db } = runtime;
  const [marker] = await db.select().from(app_meta).where(eq(app_meta.key, SEEDED_KEY));
  if (marker) return false;
  const [{ total }] = await db.select({ total: count() }).from(properties);
  if (total > 0) return false;

  const started = Date.now();
  log(`[seed] Criando ${DEMO_PROPERTIES.length} imóveis de demonstração com fotos...`);
  let photoIndex = 0;
  for (const [index, demo] of DEMO_PROPERTIES.entries()) {
    const images: string[] = [];
    for (const kind of demo.photos) {
      const jpeg = await renderDemoPhoto(kind, index + photoIndex++);
      images.push((await storeImage(runtime, jpeg)).url);
    }
    const createdAt = new Date(Date.now() - demo.ageDays * 24 * 60 * 60 * 1000);
    await db.insert(properties).values({
      codigo: demo.codigo,
      title: demo.title,
      description: demo.description,
      type: demo.type,
      purpose: demo.purpose,
      status: demo.status ?? "disponivel",
      featured: demo.featured ?? false,
      price: demo.price,
      area: demo.area,
      bedrooms: demo.bedrooms ?? null,
      bathrooms: demo.bathrooms ?? null,
      parking_spaces: demo.parking_spaces ?? null,
      neighborhood: demo.neighborhood,
      city: demo.city,
      state: "RN",
      broker_partner: demo.broker_partner ?? null,
      images,
      // Issue 22: condomínio, IPTU, suítes, features… (demo-details.ts).
      ...DEMO_DETAILS[demo.codigo],
      created_at: createdAt,
      updated_at: createdAt,
    });
  }
  await db.insert(app_meta).values({ key: SEEDED_KEY, value: new Date().toISOString() });
  log(`[seed] Pronto em ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return true;
}
