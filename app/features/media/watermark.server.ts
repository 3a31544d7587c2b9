import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { media, properties, settings } from "~/db/schema";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { loadBrokerProfile } from "~/features/settings/settings.server";
import { errorFields, logger } from "~/lib/logger.server";
import { publicSizesFromMaster } from "./pipeline.server";
import type { MediaStorage } from "./storage.server";
import { MASTER_FILE } from "./urls";
import { parseWatermark, WATERMARK_MESSAGES, type WatermarkSetting } from "./watermark";

/**
 * The watermark (issue 22, item 5; docs/decisions/019-listing-media.md). Stored as one row of the
 * settings table; applied when a listing photo's public sizes are made (upload), and, when the
 * setting changes, to the photos already on listings: their public sizes are made again from each
 * photo's un-watermarked master, in the background of the process that saved the setting.
 */

export const WATERMARK_KEY = "watermark";
const OFF: WatermarkSetting = { enabled: false, text: "" };
const log = logger("media");

type Deps = { db: Database; storage: MediaStorage };

export async function loadWatermark(db: Database): Promise<WatermarkSetting> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, WATERMARK_KEY));
  const parsed = row ? parseWatermark((row.value ?? {}) as Record<string, unknown>) : null;
  return parsed?.ok ? parsed.value : OFF;
}

/** The text to burn into new public sizes, or null when the watermark is off. */
export async function watermarkText(db: Database): Promise<string | null> {
  const setting = await loadWatermark(db);
  if (!setting.enabled) return null;
  return setting.text || (await loadBrokerProfile(db)).name || null;
}

export type WatermarkSave = { ok: true; changed: boolean; message: string } | { ok: false; message: string };

/** Saves the setting (audited), then re-renders the listings' photos in the background. */
export async function saveWatermark(deps: Deps, actor: AuditActor, input: { enabled?: unknown; text?: unknown }): Promise<WatermarkSave> {
  const parsed = parseWatermark(input);
  if (!parsed.ok) return parsed;
  const before = await loadWatermark(deps.db);
  if (before.enabled === parsed.value.enabled && before.text === parsed.value.text) return { ok: true, changed: false, message: WATERMARK_MESSAGES.unchanged };
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(settings)
      .values({ key: WATERMARK_KEY, value: parsed.value, updated_by: actor?.id ?? null })
      .onConflictDoUpdate({ target: settings.key, set: { value: parsed.value, updated_at: new Date(), updated_by: actor?.id ?? null } });
    await recordAudit(tx, { actor, action: "settings.update", entity: "settings", entityId: WATERMARK_KEY, details: { key: WATERMARK_KEY, enabled: parsed.value.enabled } });
  });
  startRerender(deps);
  return { ok: true, changed: true, message: WATERMARK_MESSAGES.saved };
}

/**
 * Makes again the public sizes of every photo a listing shows, from its master, with the current
 * watermark. Photos stored before masters existed are skipped (nothing clean to start from) and
 * counted. Safe to run again: each run writes the same files for the same setting.
 */
export async function rerenderListingPhotos(deps: Deps): Promise<{ rerendered: number; skipped: number }> {
  const text = await watermarkText(deps.db);
  const rows = await deps.db.select({ url: sql<string>`distinct unnest(${properties.images})` }).from(properties);
  const known = new Set((await deps.db.select({ id: media.id }).from(media)).map((row) => row.id));
  let rerendered = 0;
  let skipped = 0;
  for (const { url } of rows) {
    const id = /^\/media\/([A-Za-z0-9-]{8,64})\/800\.webp$/.exec(url)?.[1];
    if (!id || !known.has(id)) continue;
    const master = await deps.storage.get(`${id}/${MASTER_FILE}`);
    if (!master) {
      skipped++;
      continue;
    }
    for (const file of await publicSizesFromMaster(master.body, { watermark: text })) {
      await deps.storage.put(`${id}/${file.name}`, file.body, file.contentType);
    }
    rerendered++;
  }
  return { rerendered, skipped };
}

// One re-render at a time per process; a change during a run asks for one more run after it.
let running: Promise<void> | null = null;
let again = false;

export function startRerender(deps: Deps): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    do {
      again = false;
      try {
        const result = await rerenderListingPhotos(deps);
        log.info(result, "listing photos re-rendered for the watermark");
      } catch (error) {
        log.error({ ...errorFields(error) }, "listing photos could not be re-rendered");
      }
    } while (again);
  })().finally(() => {
    running = null;
  });
  return running;
}

/** For tests: resolves when no re-render is running. */
export const rerenderIdle = () => running ?? Promise.resolve();
