import { data } from "react-router";
import type { StaffUser } from "~/features/auth/guard.server";
import { firstIssueMessage } from "~/lib/form-data";
import { errorFields, logger } from "~/lib/logger.server";
import { isUuid } from "~/lib/ids";
import type { Runtime } from "~/features/runtime/handle.server";
import { PUSH_MESSAGES, pushPreferencesSchema, pushSubscriptionSchema } from "./schema";
import { type DeviceView, listDevices, loadPreferences, type PushPreferences, removeDevice, savePreferences, subscribeDevice } from "./subscriptions.server";
import { loadVapidKeys } from "./vapid.server";

/** 'Alertas no celular' in 'Minha conta' (/crm/conta): the card's data and its action intents. */

export const PUSH_INTENTS = ["push-subscribe", "push-remove", "push-preferences"] as const;
export type PushIntent = (typeof PUSH_INTENTS)[number];

export type PushAccount = { publicKey: string | null; devices: DeviceView[]; preferences: PushPreferences };

export async function loadPushAccount(runtime: Pick<Runtime, "db" | "env">, userId: string): Promise<PushAccount> {
  const [devices, preferences] = await Promise.all([listDevices(runtime.db, userId), loadPreferences(runtime.db, userId)]);
  // Without the key the page still shows the devices and preferences, and says alerts are off.
  const publicKey = await loadVapidKeys(runtime.db, runtime.env)
    .then((keys) => keys.publicKey)
    .catch((error) => {
      logger("push").error(errorFields(error), "VAPID keys unavailable");
      return null;
    });
  return { publicKey, devices, preferences };
}

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined || value === null || value === "" ? [] : [value]);
const asFlag = (value: unknown) => value === true || value === "on" || value === "true" || value === "1";

export async function handlePushAction(runtime: Pick<Runtime, "db" | "env">, staff: StaffUser, intent: PushIntent, body: Record<string, unknown>) {
  const actor = { id: staff.id, email: staff.email, name: staff.name };
  const answer = (ok: boolean, message: string, status = ok ? 200 : 400) => data({ ok, message }, { status });
  try {
    if (intent === "push-subscribe") {
      const parsed = pushSubscriptionSchema.safeParse({ endpoint: body.endpoint, p256dh: body.p256dh, auth: body.auth, userAgent: body.userAgent ?? "" });
      if (!parsed.success) return answer(false, firstIssueMessage(parsed.error));
      const result = await subscribeDevice(runtime.db, runtime.env, actor, parsed.data);
      if (!result.ok) return answer(false, result.reason === "service" ? PUSH_MESSAGES.service : PUSH_MESSAGES.tooMany);
      return answer(true, PUSH_MESSAGES.enabled);
    }
    if (intent === "push-remove") {
      const id = typeof body.id === "string" ? body.id : "";
      if (!isUuid(id)) return answer(false, PUSH_MESSAGES.notFound, 404);
      if (!(await removeDevice(runtime.db, actor, { id }))) return answer(false, PUSH_MESSAGES.notFound, 404);
      return answer(true, PUSH_MESSAGES.removed);
    }
    const parsed = pushPreferencesSchema.safeParse({ kinds: asList(body.kinds), reminderEmail: asFlag(body.reminderEmail) });
    if (!parsed.success) return answer(false, firstIssueMessage(parsed.error));
    await savePreferences(runtime.db, actor, parsed.data);
    return answer(true, PUSH_MESSAGES.saved);
  } catch (error) {
    logger("push").error({ intent, ...errorFields(error) }, "push account action failed");
    return answer(false, PUSH_MESSAGES.failed, 500);
  }
}

export const isPushIntent = (value: unknown): value is PushIntent => PUSH_INTENTS.includes(value as PushIntent);
