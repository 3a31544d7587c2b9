/**
 * The keys of the `settings` table. A module of its own (no imports) so the media sweep can ask
 * which portrait is in use without pulling the settings code and its runtime in.
 */
export const SETTING_KEYS = {
  brokerProfile: "broker_profile",
  notificationEmails: "notification_emails",
  whatsappTemplates: "whatsapp_templates",
  portalFeedToken: "portal_feed_token",
  portalWebhookSecret: "portal_webhook_secret",
  /** Web Push (issue 25): the VAPID key pair, its private half sealed (features/push/vapid.server.ts). */
  vapidKeys: "vapid_keys",
  // Issue 24, item 3: the reasons offered when a lead is lost (features/settings/lost-reasons.ts).
  lostReasons: "lost_reasons",
} as const;

export type SettingKey = (typeof SETTING_KEYS)[keyof typeof SETTING_KEYS];

/** The profile's fields the settings page edits; the rest (the web studio's credit) stay env-only. */
export const EDITABLE_PROFILE_FIELDS = [
  "name",
  "siteName",
  "creci",
  "phone",
  "whatsapp",
  "email",
  "address",
  "city",
  "serviceArea",
  "instagramUrl",
  "facebookUrl",
  "bio",
  "portraitUrl",
] as const;

export type EditableProfileField = (typeof EDITABLE_PROFILE_FIELDS)[number];

export const MAX_NOTIFICATION_EMAILS = 5;
export const MAX_TEMPLATES = 10;
export const MAX_TEMPLATE_NAME = 60;
export const MAX_TEMPLATE_BODY = 1000;
export const MAX_BIO = 1500;

export type SettingsIntent =
  | "profile"
  | "notifications"
  | "templates"
  // The portals' keys (issue 13): a new feed address, a new random webhook password, or one typed by hand.
  | "portal-feed-token"
  | "portal-secret-generate"
  | "portal-secret-set"
  // Issue 22: the watermark on listing photos (features/media/watermark.server.ts).
  | "watermark"
  // Issue 24: default commissions and who sees them (features/deals/deal-settings.server.ts).
  | "deals"
  // Issue 24, item 3: the list of reasons a lead is lost for.
  | "lost-reasons";

/** What the settings page's action answers (a toast, and each refused field's message). */
export type SettingsAnswer = {
  ok: boolean;
  message: string;
  intent?: SettingsIntent;
  /** Field name (as the form names it) → its message. */
  errors?: Record<string, string>;
};
