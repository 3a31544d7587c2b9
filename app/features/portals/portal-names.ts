/**
 * One name per portal, whatever spelling its webhook sends in leadOrigin ("Zap", "ZAP Imóveis",
 * "zapimoveis"; "GrupoZap" and "Grupo OLX" are the group itself). The lead keeps what the portal
 * sent (`leads.portal_name`); the CRM shows and the reports count by this name. An unknown
 * portal keeps its own name.
 */
const KNOWN: Record<string, string> = {
  zap: "ZAP Imóveis",
  zapimoveis: "ZAP Imóveis",
  vivareal: "VivaReal",
  olx: "OLX",
  grupozap: "Grupo OLX",
  grupoolx: "Grupo OLX",
};

/** Lowercase letters and digits only, accents dropped: "ZAP Imóveis" → "zapimoveis". */
export function portalKey(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

export function portalDisplayName(name: string): string {
  return KNOWN[portalKey(name)] ?? name.trim();
}
