import { describe, expect, it } from "vitest";
import { firstIssueMessage } from "~/lib/form-data";
import { propertyFormSchema, type PropertyFormInput } from "./crm-schema";
import { latestYearBuilt } from "./listing-schema";

/** The fields of issue 22 in the property form: messages, limits, and what each saves. */

const base: PropertyFormInput = {
  codigo: "ap-pn-1",
  title: "Apartamento em Ponta Negra",
  description: "Apartamento nascente perto da praia, com varanda gourmet.",
  type: "apartamento",
  purpose: "venda",
  status: "disponivel",
  price: "780.000,00",
  area: "98",
  bedrooms: "3",
  bathrooms: "2",
  neighborhood: "Ponta Negra",
  city: "Natal",
  state: "RN",
  images: [],
};

const parse = (patch: Partial<PropertyFormInput>) => propertyFormSchema.parse({ ...base, ...patch });
const messageFor = (patch: Record<string, unknown>) => {
  const result = propertyFormSchema.safeParse({ ...base, ...patch });
  return result.success ? null : firstIssueMessage(result.error);
};

describe("listing fields (issue 22)", () => {
  it("leaves every new field empty when the form says nothing, as old listings are", () => {
    expect(parse({})).toMatchObject({
      condo_fee: null,
      iptu_yearly: null,
      suites: null,
      total_area: null,
      floor: null,
      total_floors: null,
      year_built: null,
      furnished: null,
      pets_allowed: null,
      accepts_financing: null,
      accepts_fgts: null,
      accepts_exchange: null,
      rental_guarantees: [],
      features: [],
      latitude: null,
      longitude: null,
      video_url: null,
      tour_url: null,
    });
    expect(parse({ address_number: "  ", address_complement: "" })).toMatchObject({ address_number: undefined, address_complement: undefined });
  });

  it("reads what the form sends: masked reais, counts, tri-states, lists in the catalogue's order", () => {
    expect(
      parse({
        condo_fee: "850,00",
        iptu_yearly: "1.800,00",
        suites: "2",
        total_area: "120,5",
        floor: "0",
        total_floors: "12",
        year_built: "2015",
        furnished: "semimobiliado",
        pets_allowed: "true",
        accepts_financing: "true",
        accepts_fgts: "false",
        accepts_exchange: "",
        features: ["piscina", "varanda", "piscina"],
        address_number: " 1200 ",
        address_complement: "Apto 802, Torre B",
        latitude: "-5,8812",
        longitude: "-35.1776",
        video_url: "youtu.be/dQw4w9WgXcQ",
        tour_url: "http://my.matterport.com/show/?m=abc123",
      }),
    ).toMatchObject({
      condo_fee: 850,
      iptu_yearly: 1800,
      suites: 2,
      total_area: 120.5,
      floor: 0, // térreo is kept, not taken for "empty"
      total_floors: 12,
      year_built: 2015,
      furnished: "semimobiliado",
      pets_allowed: true,
      accepts_financing: true,
      accepts_fgts: false,
      accepts_exchange: null,
      features: ["varanda", "piscina"],
      address_number: "1200",
      address_complement: "Apto 802, Torre B",
      latitude: -5.8812,
      longitude: -35.1776,
      video_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      tour_url: "https://my.matterport.com/show/?m=abc123",
    });
  });

  it("takes JSON values too, and a zero condomínio or IPTU as not said", () => {
    expect(parse({ condo_fee: 0, iptu_yearly: 2400, pets_allowed: false, features: "elevador" })).toMatchObject({
      condo_fee: null,
      iptu_yearly: 2400,
      pets_allowed: false,
      features: ["elevador"],
    });
  });

  it("answers each bad value with its own message", () => {
    expect(messageFor({ condo_fee: "-10" })).toBe("Condomínio inválido");
    expect(messageFor({ condo_fee: "100.000,01" })).toBe("Condomínio deve ser no máximo R$ 100.000 por mês");
    expect(messageFor({ iptu_yearly: "abc" })).toBe("IPTU inválido");
    expect(messageFor({ iptu_yearly: "1.000.000,01" })).toBe("IPTU deve ser no máximo R$ 1.000.000 por ano");
    expect(messageFor({ suites: "1.5" })).toBe("Quantidade de suítes inválida");
    expect(messageFor({ suites: "1000" })).toBe("Quantidade de suítes deve ser no máximo 999");
    expect(messageFor({ total_area: "-1" })).toBe("Área total inválida");
    expect(messageFor({ total_area: "10000001" })).toBe("Área total deve ser no máximo 10.000.000 m²");
    expect(messageFor({ floor: "-1" })).toBe("Andar inválido");
    expect(messageFor({ floor: "201" })).toBe("Andar deve ser no máximo 200");
    expect(messageFor({ total_floors: "0" })).toBeNull(); // zero is "not said"
    expect(messageFor({ total_floors: "2.5" })).toBe("Total de andares inválido");
    expect(messageFor({ total_floors: "201" })).toBe("Total de andares deve ser no máximo 200");
    expect(messageFor({ year_built: "dois mil" })).toBe("Ano de construção inválido");
    expect(messageFor({ year_built: "1849" })).toBe(`Ano de construção deve estar entre 1850 e ${latestYearBuilt()}`);
    expect(messageFor({ year_built: String(latestYearBuilt() + 1) })).toBe(`Ano de construção deve estar entre 1850 e ${latestYearBuilt()}`);
    expect(messageFor({ year_built: String(latestYearBuilt()) })).toBeNull(); // a launch, five years ahead
    expect(messageFor({ furnished: "decorado" })).toBe("Mobília inválida");
    expect(messageFor({ pets_allowed: "talvez" })).toBe("Aceita animais inválido");
    expect(messageFor({ accepts_financing: "sim" })).toBe("Aceita financiamento inválido");
    expect(messageFor({ accepts_fgts: 1 as never })).toBe("Aceita FGTS inválido");
    expect(messageFor({ accepts_exchange: "x" })).toBe("Aceita permuta inválido");
    expect(messageFor({ purpose: "aluguel", rental_guarantees: ["fiador", "cheque"] })).toBe("Garantia de locação inválida");
    expect(messageFor({ features: ["piscina", "heliponto"] })).toBe("Característica inválida");
    expect(messageFor({ address_number: "1".repeat(21) })).toBe("Número muito longo");
    expect(messageFor({ address_number: "12\u0000" })).toBe("Número contém caracteres inválidos");
    expect(messageFor({ address_complement: "x".repeat(101) })).toBe("Complemento muito longo");
    expect(messageFor({ latitude: "norte", longitude: "-35" })).toBe("Latitude inválida");
    expect(messageFor({ latitude: "-35,2", longitude: "-5,8" })).toBe("Latitude fora do Brasil: use um número entre -34 e 6, como -5,88");
    expect(messageFor({ latitude: "-5,8", longitude: "35,2" })).toBe("Longitude fora do Brasil: use um número entre -74 e -28, como -35,18");
    expect(messageFor({ video_url: "https://www.youtube.com/@corretor" })).toBe("Vídeo: use o link de um vídeo do YouTube ou do Vimeo");
    expect(messageFor({ video_url: "https://evil.example/watch?v=dQw4w9WgXcQ" })).toBe("Vídeo: use o link de um vídeo do YouTube ou do Vimeo");
    expect(messageFor({ video_url: "javascript:alert(1)" })).toBe("Vídeo: use o link de um vídeo do YouTube ou do Vimeo");
    expect(messageFor({ tour_url: "https://tour.example.com/360" })).toBe("Tour 360°: use um link do Matterport, Kuula, CloudPano ou Momento360");
    expect(messageFor({ tour_url: "https://kuula.co/" })).toBe("Tour 360°: use um link do Matterport, Kuula, CloudPano ou Momento360");
  });

  it("compares fields that belong together, on the field to correct", () => {
    const issue = (patch: Record<string, unknown>) => propertyFormSchema.safeParse({ ...base, ...patch }).error?.issues[0];
    expect(issue({ bedrooms: "2", suites: "3" })).toMatchObject({ message: "Suítes não podem ser mais que os quartos", path: ["suites"] });
    expect(issue({ bedrooms: "", suites: "1" })?.message).toBe("Suítes não podem ser mais que os quartos");
    expect(messageFor({ bedrooms: "3", suites: "3" })).toBeNull();
    expect(issue({ floor: "13", total_floors: "12" })).toMatchObject({ message: "O andar não pode ser maior que o total de andares", path: ["floor"] });
    expect(messageFor({ floor: "12", total_floors: "12" })).toBeNull();
    expect(issue({ latitude: "-5,88" })).toMatchObject({ message: "Informe a latitude e a longitude juntas", path: ["longitude"] });
    expect(messageFor({ longitude: "-35,2" })).toBe("Informe a latitude e a longitude juntas");
    // Área útil above área total is allowed (a two-storey house on its plot), but not absurdly so.
    expect(messageFor({ type: "casa", area: "180", total_area: "120" })).toBeNull();
    expect(messageFor({ area: "98", total_area: "110" })).toBeNull();
    expect(issue({ area: "600", total_area: "100" })).toMatchObject({
      message: "Área útil maior que 5 vezes a área total: confira as duas áreas",
      path: ["total_area"],
    });
  });

  it("drops what does not apply instead of refusing it", () => {
    const sale = parse({ rental_guarantees: ["fiador"], accepts_financing: "true", accepts_fgts: "true", accepts_exchange: "false" });
    expect(sale).toMatchObject({ rental_guarantees: [], accepts_financing: true, accepts_fgts: true, accepts_exchange: false });
    const rent = parse({ purpose: "aluguel", rental_guarantees: ["caucao", "fiador"], accepts_financing: "true", accepts_fgts: "true", accepts_exchange: "true" });
    expect(rent).toMatchObject({ rental_guarantees: ["fiador", "caucao"], accepts_financing: null, accepts_fgts: null, accepts_exchange: null });
    // A house has no andar: a leftover value (and its comparison) is ignored.
    expect(parse({ type: "casa", floor: "9", total_floors: "2" })).toMatchObject({ floor: null, total_floors: null });
    expect(parse({ type: "ponto_comercial", floor: "3", total_floors: "10" })).toMatchObject({ floor: 3, total_floors: 10 });
  });

  it("keeps the spec's messages for the spec's fields", () => {
    expect(messageFor({ area: "-5" })).toBe("Área inválida");
    expect(messageFor({ bedrooms: "2.5" })).toBe("Quantidade de quartos inválida");
    expect(messageFor({ codigo: " " })).toBe("Código é obrigatório");
  });
});
