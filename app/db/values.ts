/**
 * The spec's enum values, stored as these exact lowercase strings. Kept apart from schema.ts so
 * that browser code can import them without pulling drizzle into the bundle.
 */
export const PROPERTY_TYPES = ["casa", "apartamento", "terreno", "ponto_comercial"] as const;
export const PROPERTY_PURPOSES = ["venda", "aluguel"] as const;
export const PROPERTY_STATUSES = ["disponivel", "vendido", "alugado", "em_negociacao"] as const;
export const LEAD_INTERESTS = ["comprar", "alugar", "vender"] as const;
// "portal" is not in the spec (issue 13): leads the portals (ZAP, VivaReal, OLX) send by webhook.
export const LEAD_ORIGINS = ["site", "whatsapp", "indicacao", "outro", "portal"] as const;
export const LEAD_STATUSES = ["novo", "em_atendimento", "convertido", "perdido"] as const;
export const ROLES = ["admin", "corretor"] as const;

export type PropertyType = (typeof PROPERTY_TYPES)[number];
export type PropertyPurpose = (typeof PROPERTY_PURPOSES)[number];
export type PropertyStatus = (typeof PROPERTY_STATUSES)[number];
export type LeadInterest = (typeof LEAD_INTERESTS)[number];
export type LeadOrigin = (typeof LEAD_ORIGINS)[number];
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export type Role = (typeof ROLES)[number];

