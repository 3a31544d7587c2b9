import { PROPERTY_FEATURES, type PropertyFeature } from "~/db/values";

/**
 * The listing's features (issue 22): one fixed catalogue, shared by the CRM form, the public page,
 * the filters and the portals' feed. Pure data, no imports beyond the key list: safe in any bundle.
 *
 * - `group`: 'imovel' (the home itself) or 'condominio' (the building or gated community).
 * - `vrsync`: the name the portals' VRSync feed expects inside `<Features><Feature>`, from the closed
 *   list of developers.grupozap.com/feeds/vrsync/elements/details (as transcribed by integrators in
 *   2026; cross-checked with their Portuguese↔VRSync tables). null where the list has no such
 *   feature or the match could not be confirmed: the feed leaves those out, they never invalidate a
 *   listing. Several keys may share a name (the feed sends each name once).
 * - `icon`: a lucide icon name (lucide.dev) for the public page. Our icons come from one SVG sprite
 *   (scripts/build-icons.mjs): add the names a page uses to its ICONS list when the page uses them.
 */

export const FEATURE_GROUPS = ["imovel", "condominio"] as const;
export type FeatureGroup = (typeof FEATURE_GROUPS)[number];

export const FEATURE_GROUP_LABELS: Record<FeatureGroup, string> = {
  imovel: "Do imóvel",
  condominio: "Do condomínio",
};

export type FeatureInfo = { label: string; group: FeatureGroup; vrsync: string | null; icon: string };

export const FEATURES: Record<PropertyFeature, FeatureInfo> = {
  varanda: { label: "Varanda", group: "imovel", vrsync: "Balcony", icon: "door-open" },
  varanda_gourmet: { label: "Varanda gourmet", group: "imovel", vrsync: "Gourmet Balcony", icon: "utensils" },
  piscina_privativa: { label: "Piscina privativa", group: "imovel", vrsync: "Private Pool", icon: "waves-ladder" },
  // The closed list has "Cooling" (ar-condicionado in the portals' own tables), not "Air Conditioning".
  ar_condicionado: { label: "Ar-condicionado", group: "imovel", vrsync: "Cooling", icon: "air-vent" },
  armarios_planejados: { label: "Armários planejados", group: "imovel", vrsync: "Planned Furniture", icon: "archive" },
  cozinha_americana: { label: "Cozinha americana", group: "imovel", vrsync: "American Kitchen", icon: "cooking-pot" },
  closet: { label: "Closet", group: "imovel", vrsync: "Closet", icon: "shirt" },
  escritorio: { label: "Escritório", group: "imovel", vrsync: "Home Office", icon: "laptop" },
  // VivaReal's own Portuguese for "Maid's Quarters" is 'Área de serviço'.
  area_servico: { label: "Área de serviço", group: "imovel", vrsync: "Maid's Quarters", icon: "washing-machine" },
  dependencia_empregada: { label: "Dependência de empregada", group: "imovel", vrsync: "Employee Dependency", icon: "bed" },
  lavabo: { label: "Lavabo", group: "imovel", vrsync: "Lavabo", icon: "toilet" },
  quintal: { label: "Quintal", group: "imovel", vrsync: "Backyard", icon: "fence" },
  jardim: { label: "Jardim", group: "imovel", vrsync: "Garden Area", icon: "flower-2" },
  churrasqueira: { label: "Churrasqueira", group: "imovel", vrsync: "BBQ", icon: "flame" },
  energia_solar: { label: "Energia solar", group: "imovel", vrsync: "Solar Energy", icon: "solar-panel" },
  hidromassagem: { label: "Hidromassagem", group: "imovel", vrsync: "Whirlpool", icon: "bath" },
  vista_mar: { label: "Vista para o mar", group: "imovel", vrsync: "Ocean View", icon: "waves" },
  edicula: { label: "Edícula", group: "imovel", vrsync: "Edicule", icon: "house-plus" },
  deposito: { label: "Depósito", group: "imovel", vrsync: "Warehouse", icon: "package" },
  mezanino: { label: "Mezanino", group: "imovel", vrsync: "Mezzanine", icon: "layers" },

  piscina: { label: "Piscina", group: "condominio", vrsync: "Pool", icon: "waves-ladder" },
  academia: { label: "Academia", group: "condominio", vrsync: "Gym", icon: "dumbbell" },
  salao_festas: { label: "Salão de festas", group: "condominio", vrsync: "Party Room", icon: "party-popper" },
  espaco_gourmet: { label: "Espaço gourmet", group: "condominio", vrsync: "Gourmet Area", icon: "chef-hat" },
  playground: { label: "Playground", group: "condominio", vrsync: "Playground", icon: "ferris-wheel" },
  brinquedoteca: { label: "Brinquedoteca", group: "condominio", vrsync: "Toys Place", icon: "toy-brick" },
  salao_jogos: { label: "Salão de jogos", group: "condominio", vrsync: "Game room", icon: "gamepad-2" },
  quadra_poliesportiva: { label: "Quadra poliesportiva", group: "condominio", vrsync: "Sports Court", icon: "trophy" },
  quadra_tenis: { label: "Quadra de tênis", group: "condominio", vrsync: "Tennis court", icon: "circle-dot" },
  // One integrator maps it to "Sand Pit", which in English is a children's sandbox: unconfirmed.
  quadra_areia: { label: "Quadra de areia", group: "condominio", vrsync: null, icon: "volleyball" },
  sauna: { label: "Sauna", group: "condominio", vrsync: "Sauna", icon: "thermometer" },
  pista_caminhada: { label: "Pista de caminhada", group: "condominio", vrsync: "Jogging track", icon: "footprints" },
  espaco_pet: { label: "Espaço pet", group: "condominio", vrsync: "Pet Space", icon: "paw-print" },
  portaria_24h: { label: "Portaria 24h", group: "condominio", vrsync: "Concierge 24h", icon: "concierge-bell" },
  seguranca_24h: { label: "Segurança 24h", group: "condominio", vrsync: "Security Guard on Duty", icon: "shield-check" },
  cameras_seguranca: { label: "Câmeras de segurança", group: "condominio", vrsync: "Security Camera", icon: "cctv" },
  // Integrators send "Fenced Yard" for it, but that name means a fenced garden: unconfirmed.
  condominio_fechado: { label: "Condomínio fechado", group: "condominio", vrsync: null, icon: "lock" },
  elevador: { label: "Elevador", group: "condominio", vrsync: "Elevator", icon: "arrow-up-down" },
  gerador: { label: "Gerador", group: "condominio", vrsync: "Generator", icon: "zap" },
  // The closed list has no piped gas.
  gas_encanado: { label: "Gás encanado", group: "condominio", vrsync: null, icon: "flame-kindling" },
  bicicletario: { label: "Bicicletário", group: "condominio", vrsync: "Bicycles Place", icon: "bike" },
  vaga_visitantes: { label: "Vaga para visitantes", group: "condominio", vrsync: "Guest Parking", icon: "circle-parking" },
  carregador_eletrico: { label: "Carregador para carro elétrico", group: "condominio", vrsync: "Electric Charger", icon: "ev-charger" },
  coworking: { label: "Coworking", group: "condominio", vrsync: "Coworking", icon: "briefcase-business" },
};

/** The keys of one group, in the catalogue's order. */
export const featuresOf = (group: FeatureGroup): PropertyFeature[] => PROPERTY_FEATURES.filter((key) => FEATURES[key].group === group);

export const isPropertyFeature = (value: unknown): value is PropertyFeature =>
  typeof value === "string" && Object.prototype.hasOwnProperty.call(FEATURES, value);

/** A listing's features in the catalogue's order, grouped, unknown keys dropped (for pages). */
export function groupedFeatures(keys: readonly string[]): { group: FeatureGroup; label: string; features: (FeatureInfo & { key: PropertyFeature })[] }[] {
  const chosen = new Set(keys);
  return FEATURE_GROUPS.map((group) => ({
    group,
    label: FEATURE_GROUP_LABELS[group],
    features: featuresOf(group)
      .filter((key) => chosen.has(key))
      .map((key) => ({ key, ...FEATURES[key] })),
  })).filter((entry) => entry.features.length > 0);
}

/** The VRSync `<Feature>` names of a listing's features, each once, in the catalogue's order. */
export function vrsyncFeatureNames(keys: readonly string[]): string[] {
  const chosen = new Set(keys);
  const names = PROPERTY_FEATURES.filter((key) => chosen.has(key))
    .map((key) => FEATURES[key].vrsync)
    .filter((name): name is string => name !== null);
  return [...new Set(names)];
}

/**
 * Accent- and case-insensitive match of a feature's label against what the broker typed in the
 * form's search box ("piscin", "salao", "24h").
 */
export function featureMatches(key: PropertyFeature, query: string): boolean {
  const fold = (text: string) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  const wanted = fold(query);
  return wanted === "" || fold(FEATURES[key].label).includes(wanted);
}
