import { z } from "zod";
import type { BrokerProfile } from "./broker-profile";

/**
 * The broker's public profile's FIRST-RUN DEFAULTS: one typed place, with placeholder defaults that
 * are obviously not a real person, each overridable by an environment variable (listed in
 * `.env.example`). What pages show is loadBrokerProfile (features/settings): the profile saved in
 * /crm/configuracoes over these.
 */
const DEFAULTS: BrokerProfile = {
  name: "Corretor Exemplo",
  siteName: "Corretor Exemplo Imóveis",
  creci: "CRECI-RN 00000-F",
  phone: "(84) 90000-0000",
  whatsapp: "5584900000000",
  email: "contato@exemplo.com.br",
  address: "",
  city: "Natal/RN",
  serviceArea: "Natal e Parnamirim",
  instagramUrl: "https://www.instagram.com/",
  facebookUrl: "https://www.facebook.com/",
  bio:
    "Corretor de imóveis em Natal e Parnamirim, com atendimento próximo do primeiro contato à " +
    "entrega das chaves. Conheço cada bairro da região e ajudo você a comprar, vender ou alugar " +
    "com segurança, transparência e sem burocracia.",
  portraitUrl: "/portrait-placeholder.svg",
  studioName: "Estúdio Exemplo",
  studioUrl: "https://example.com/",
};

const ENV_NAMES: Record<keyof BrokerProfile, string> = {
  name: "BROKER_NAME",
  siteName: "BROKER_SITE_NAME",
  creci: "BROKER_CRECI",
  phone: "BROKER_PHONE",
  whatsapp: "BROKER_WHATSAPP",
  email: "BROKER_EMAIL",
  address: "BROKER_ADDRESS",
  city: "BROKER_CITY",
  serviceArea: "BROKER_SERVICE_AREA",
  instagramUrl: "BROKER_INSTAGRAM_URL",
  facebookUrl: "BROKER_FACEBOOK_URL",
  bio: "BROKER_BIO",
  portraitUrl: "BROKER_PORTRAIT_URL",
  studioName: "STUDIO_NAME",
  studioUrl: "STUDIO_URL",
};

const profileSchema = z.object({
  name: z.string().min(2).max(100),
  siteName: z.string().min(2).max(100),
  creci: z.string().min(2).max(50),
  phone: z.string().min(8).max(30),
  // wa.me wants the number with country code, digits only.
  whatsapp: z.string().regex(/^\d{10,15}$/, { error: "digits only, with country code (e.g. 5584999999999)" }),
  email: z.email({ error: "must be an email address" }),
  address: z.string().max(200),
  city: z.string().min(2).max(60),
  serviceArea: z.string().min(2).max(100),
  instagramUrl: z.url({ error: "must be a URL" }),
  facebookUrl: z.url({ error: "must be a URL" }),
  bio: z.string().min(10).max(1000),
  portraitUrl: z.string().regex(/^(https?:\/\/|\/)/, { error: "must be a URL or a path starting with /" }),
  studioName: z.string().min(1).max(100),
  studioUrl: z.url({ error: "must be a URL" }),
});

export function parseBrokerProfile(source: Record<string, string | undefined>): BrokerProfile {
  const merged = Object.fromEntries(
    (Object.keys(DEFAULTS) as (keyof BrokerProfile)[]).map((key) => {
      const fromEnv = source[ENV_NAMES[key]]?.trim();
      return [key, fromEnv ? fromEnv : DEFAULTS[key]];
    }),
  );
  const result = profileSchema.safeParse(merged);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const key = issue.path[0] as keyof BrokerProfile;
      return `  ${ENV_NAMES[key] ?? String(key)}: ${issue.message}`;
    });
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

let cached: BrokerProfile | undefined;

export function getBrokerProfile(): BrokerProfile {
  cached ??= parseBrokerProfile(process.env);
  return cached;
}
