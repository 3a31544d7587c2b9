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
/**
 * Not in the spec (issue 25, decision 028): the public page a 'clique no WhatsApp' came from, a
 * short name from this list, never a URL.
 */
export const WHATSAPP_PAGES = ["home", "lista", "imovel", "bairro", "contato", "sobre", "favoritos", "privacidade", "outra"] as const;
export const LEAD_STATUSES = ["novo", "em_atendimento", "convertido", "perdido"] as const;
export const ROLES = ["admin", "corretor"] as const;

export type PropertyType = (typeof PROPERTY_TYPES)[number];
export type PropertyPurpose = (typeof PROPERTY_PURPOSES)[number];
export type PropertyStatus = (typeof PROPERTY_STATUSES)[number];
export type LeadInterest = (typeof LEAD_INTERESTS)[number];
export type LeadOrigin = (typeof LEAD_ORIGINS)[number];
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export type Role = (typeof ROLES)[number];
export type WhatsappPage = (typeof WHATSAPP_PAGES)[number];


/*
 * The listing as the portals know it (issue 22). Not in the spec: optional columns of
 * `properties`, stored as these exact strings. Labels: app/features/properties/labels.ts; the
 * feature catalogue (label, group, VRSync name, icon): app/features/properties/features.ts.
 */

/** 'Mobília' (`properties.furnished`); null = not said. */
export const FURNISHED_VALUES = ["mobiliado", "semimobiliado", "sem_mobilia"] as const;

/** Guarantees a landlord accepts (`properties.rental_guarantees`, rentals only). */
export const RENTAL_GUARANTEES = ["fiador", "seguro_fianca", "caucao", "titulo_capitalizacao"] as const;

/**
 * The fixed feature list (`properties.features`): stable snake_case ASCII keys, first those of
 * the home itself ('do imóvel'), then those of the building or gated community ('do condomínio').
 * A key is never renamed or reused: listings and shared filter URLs hold it.
 */
export const PROPERTY_FEATURES = [
  // do imóvel
  "varanda",
  "varanda_gourmet",
  "piscina_privativa",
  "ar_condicionado",
  "armarios_planejados",
  "cozinha_americana",
  "closet",
  "escritorio",
  "area_servico",
  "dependencia_empregada",
  "lavabo",
  "quintal",
  "jardim",
  "churrasqueira",
  "energia_solar",
  "hidromassagem",
  "vista_mar",
  "edicula",
  "deposito",
  "mezanino",
  // do condomínio
  "piscina",
  "academia",
  "salao_festas",
  "espaco_gourmet",
  "playground",
  "brinquedoteca",
  "salao_jogos",
  "quadra_poliesportiva",
  "quadra_tenis",
  "quadra_areia",
  "sauna",
  "pista_caminhada",
  "espaco_pet",
  "portaria_24h",
  "seguranca_24h",
  "cameras_seguranca",
  "condominio_fechado",
  "elevador",
  "gerador",
  "gas_encanado",
  "bicicletario",
  "vaga_visitantes",
  "carregador_eletrico",
  "coworking",
] as const;

export type Furnished = (typeof FURNISHED_VALUES)[number];
export type RentalGuarantee = (typeof RENTAL_GUARANTEES)[number];
export type PropertyFeature = (typeof PROPERTY_FEATURES)[number];
