import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROPERTY_FEATURES } from "~/db/values";
import { FEATURES, featureMatches, featuresOf, groupedFeatures, vrsyncFeatureNames } from "./features";

describe("the feature catalogue (issue 22)", () => {
  it("has about forty stable snake_case keys in two groups, each labelled", () => {
    expect(PROPERTY_FEATURES.length).toBeGreaterThanOrEqual(38);
    expect(new Set(PROPERTY_FEATURES).size).toBe(PROPERTY_FEATURES.length);
    for (const key of PROPERTY_FEATURES) {
      expect(key).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(FEATURES[key].label.length).toBeGreaterThan(2);
    }
    expect(featuresOf("imovel")).toContain("varanda_gourmet");
    expect(featuresOf("condominio")).toEqual(expect.arrayContaining(["piscina", "academia", "salao_festas", "playground", "portaria_24h", "elevador", "espaco_pet"]));
    expect(featuresOf("imovel").length + featuresOf("condominio").length).toBe(PROPERTY_FEATURES.length);
  });

  it("names a lucide icon that exists for every feature", () => {
    const icons = path.resolve("node_modules/lucide-react/dist/esm/icons");
    for (const key of PROPERTY_FEATURES) {
      expect(fs.existsSync(path.join(icons, `${FEATURES[key].icon}.mjs`)), `${key}: ${FEATURES[key].icon}`).toBe(true);
    }
  });

  it("maps features to VRSync names once each, leaving out the unconfirmed", () => {
    expect(vrsyncFeatureNames(["piscina", "piscina_privativa", "elevador", "gas_encanado", "desconhecida"])).toEqual(["Private Pool", "Pool", "Elevator"]);
    expect(vrsyncFeatureNames(["ar_condicionado"])).toEqual(["Cooling"]);
  });

  it("groups a listing's features for a page, in the catalogue's order", () => {
    expect(groupedFeatures(["elevador", "varanda", "piscina"]).map(({ label, features }) => [label, features.map((feature) => feature.label)])).toEqual([
      ["Do imóvel", ["Varanda"]],
      ["Do condomínio", ["Piscina", "Elevador"]],
    ]);
    expect(groupedFeatures([])).toEqual([]);
  });

  it("finds a feature by what the broker types, without accents or case", () => {
    expect(PROPERTY_FEATURES.filter((key) => featureMatches(key, "SALAO"))).toEqual(["salao_festas", "salao_jogos"]);
    expect(PROPERTY_FEATURES.filter((key) => featureMatches(key, "piscin"))).toEqual(["piscina_privativa", "piscina"]);
    expect(featureMatches("academia", "  ")).toBe(true);
  });
});
