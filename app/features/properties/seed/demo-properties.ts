import type { PropertyPurpose, PropertyStatus, PropertyType } from "~/db/values";
import type { SceneKind } from "./demo-photos.server";

/** Demo listings for a first start: realistic for Natal and Parnamirim, clearly demo data. */
export type DemoProperty = {
  codigo: string;
  title: string;
  description: string;
  type: PropertyType;
  purpose: PropertyPurpose;
  status?: PropertyStatus;
  featured?: boolean;
  price: number;
  area: number | null;
  bedrooms?: number;
  bathrooms?: number;
  parking_spaces?: number;
  neighborhood: string;
  city: "Natal" | "Parnamirim";
  broker_partner?: string;
  photos: SceneKind[];
  /** Days before the seed, so "newest first" has a stable order. */
  ageDays: number;
};

export const DEMO_PROPERTIES: DemoProperty[] = [
  {
    codigo: "AP-PN-101",
    title: "Apartamento com vista para o Morro do Careca",
    description:
      "Apartamento nascente a duas quadras da praia de Ponta Negra, com varanda gourmet voltada para o mar e o Morro do Careca. Condomínio com piscina, academia e portaria 24 horas.",
    type: "apartamento",
    purpose: "venda",
    featured: true,
    price: 780000,
    area: 98,
    bedrooms: 3,
    bathrooms: 2,
    parking_spaces: 2,
    neighborhood: "Ponta Negra",
    city: "Natal",
    broker_partner: "Imobiliária Parceira Exemplo",
    photos: ["beach", "building", "living", "bedroom"],
    ageDays: 2,
  },
  {
    codigo: "CA-CM-202",
    title: "Casa térrea com piscina em Capim Macio",
    description:
      "Casa ampla em rua tranquila de Capim Macio, perto do Parque das Dunas e de escolas. Sala integrada, cozinha planejada, suíte master e área de lazer com piscina e churrasqueira.",
    type: "casa",
    purpose: "venda",
    featured: true,
    price: 1250000,
    area: 320,
    bedrooms: 4,
    bathrooms: 4,
    parking_spaces: 3,
    neighborhood: "Capim Macio",
    city: "Natal",
    photos: ["house", "pool", "living", "kitchen"],
    ageDays: 4,
  },
  {
    codigo: "AP-LN-303",
    title: "Apartamento de 2 quartos em Lagoa Nova",
    description:
      "Apartamento bem localizado em Lagoa Nova, próximo à Arena das Dunas, ao Midway Mall e às principais avenidas. Projetado, com armários, andar alto e ventilação cruzada.",
    type: "apartamento",
    purpose: "aluguel",
    featured: true,
    price: 2300,
    area: 62,
    bedrooms: 2,
    bathrooms: 2,
    parking_spaces: 1,
    neighborhood: "Lagoa Nova",
    city: "Natal",
    photos: ["building", "living", "kitchen"],
    ageDays: 1,
  },
  {
    codigo: "CA-NP-404",
    title: "Casa em condomínio fechado em Nova Parnamirim",
    description:
      "Casa duplex em condomínio com segurança, área verde e playground. Três suítes, varanda, quintal e garagem para dois carros. A poucos minutos de Natal pela BR-101.",
    type: "casa",
    purpose: "venda",
    price: 540000,
    area: 150,
    bedrooms: 3,
    bathrooms: 3,
    parking_spaces: 2,
    neighborhood: "Nova Parnamirim",
    city: "Parnamirim",
    photos: ["house", "living", "bedroom"],
    ageDays: 6,
  },
  {
    codigo: "TE-CO-505",
    title: "Terreno de 450 m² em Cotovelo",
    description:
      "Terreno plano a 300 metros da praia de Cotovelo, em loteamento com ruas calçadas e energia. Ótimo para casa de praia ou investimento. Documentação em dia.",
    type: "terreno",
    purpose: "venda",
    price: 220000,
    area: 450,
    neighborhood: "Cotovelo",
    city: "Parnamirim",
    photos: ["land", "beach", "land"],
    ageDays: 9,
  },
  {
    codigo: "PC-TI-606",
    title: "Ponto comercial na avenida em Tirol",
    description:
      "Loja de esquina com vitrine ampla em avenida movimentada do Tirol, com mezanino, dois banheiros e estacionamento na frente. Ideal para clínica, escritório ou varejo.",
    type: "ponto_comercial",
    purpose: "aluguel",
    price: 6500,
    area: 120,
    bathrooms: 2,
    parking_spaces: 4,
    neighborhood: "Tirol",
    city: "Natal",
    broker_partner: "Parceiro Comercial Exemplo",
    photos: ["shop", "living", "shop"],
    ageDays: 3,
  },
  {
    codigo: "AP-PE-707",
    title: "Apartamento amplo em Petrópolis",
    description:
      "Apartamento de alto padrão em Petrópolis, perto da Praia do Meio e do centro histórico. Salas amplas, dependência completa, duas vagas e vista para o rio Potengi.",
    type: "apartamento",
    purpose: "venda",
    status: "em_negociacao",
    price: 950000,
    area: 165,
    bedrooms: 4,
    bathrooms: 3,
    parking_spaces: 2,
    neighborhood: "Petrópolis",
    city: "Natal",
    photos: ["building", "living", "bedroom", "kitchen"],
    ageDays: 12,
  },
  {
    codigo: "CA-PN-808",
    title: "Casa de praia para alugar em Ponta Negra",
    description:
      "Casa mobiliada a 200 metros do calçadão de Ponta Negra, com três quartos, varanda com rede e piscina. Aluguel anual; condomínio e IPTU à parte.",
    type: "casa",
    purpose: "aluguel",
    price: 4800,
    area: 180,
    bedrooms: 3,
    bathrooms: 2,
    parking_spaces: 2,
    neighborhood: "Ponta Negra",
    city: "Natal",
    photos: ["pool", "house", "bedroom"],
    ageDays: 5,
  },
  {
    codigo: "TE-LN-909",
    title: "Terreno comercial em Lagoa Nova",
    description:
      "Terreno de esquina com 600 m² em Lagoa Nova, zoneamento comercial, próximo à Avenida Prudente de Morais. Excelente para prédio de escritórios ou centro médico.",
    type: "terreno",
    purpose: "venda",
    price: 1600000,
    area: 600,
    neighborhood: "Lagoa Nova",
    city: "Natal",
    photos: ["land", "building", "land"],
    ageDays: 15,
  },
  {
    codigo: "AP-NP-110",
    title: "Apartamento compacto em Nova Parnamirim",
    description:
      "Apartamento de dois quartos em condomínio com piscina e salão de festas, perto de supermercados e do Parnamirim Shopping. Ótima opção para o primeiro imóvel.",
    type: "apartamento",
    purpose: "venda",
    status: "vendido",
    price: 265000,
    area: 54,
    bedrooms: 2,
    bathrooms: 1,
    parking_spaces: 1,
    neighborhood: "Nova Parnamirim",
    city: "Parnamirim",
    photos: ["building", "pool", "kitchen"],
    ageDays: 20,
  },
  {
    codigo: "PC-CM-211",
    title: "Sala comercial em Capim Macio",
    description:
      "Sala comercial em centro empresarial na Avenida Roberto Freire, com recepção, copa e banheiro privativo. Prédio com elevador, vigilância e vagas rotativas.",
    type: "ponto_comercial",
    purpose: "venda",
    price: 310000,
    area: 42,
    bathrooms: 1,
    parking_spaces: 1,
    neighborhood: "Capim Macio",
    city: "Natal",
    photos: ["shop", "living", "kitchen"],
    ageDays: 8,
  },
  {
    codigo: "CA-TI-312",
    title: "Casa reformada no Tirol",
    description:
      "Casa com arquitetura clássica totalmente reformada no Tirol, com jardim, quatro quartos e escritório. A poucos passos de escolas, padarias e do Bosque das Mangueiras.",
    type: "casa",
    purpose: "aluguel",
    status: "alugado",
    price: 7500,
    area: 280,
    bedrooms: 4,
    bathrooms: 3,
    parking_spaces: 2,
    neighborhood: "Tirol",
    city: "Natal",
    photos: ["house", "living", "bedroom", "kitchen"],
    ageDays: 18,
  },
  {
    codigo: "AP-PN-413",
    title: "Cobertura duplex com piscina privativa",
    description:
      "Cobertura duplex em Ponta Negra com piscina privativa, espaço gourmet e vista panorâmica do mar. Quatro suítes, quatro vagas e acabamento de alto padrão.",
    type: "apartamento",
    purpose: "venda",
    price: 6200000,
    area: 340,
    bedrooms: 4,
    bathrooms: 5,
    parking_spaces: 4,
    neighborhood: "Ponta Negra",
    city: "Natal",
    photos: ["pool", "beach", "living", "bedroom"],
    ageDays: 7,
  },
  {
    codigo: "TE-PA-514",
    title: "Lote em condomínio em Parnamirim",
    description:
      "Lote de 360 m² em condomínio horizontal com portaria, área de lazer e ruas asfaltadas, em região de crescimento de Parnamirim. Aceita financiamento.",
    type: "terreno",
    purpose: "venda",
    price: 0,
    area: 360,
    neighborhood: "Parque das Nações",
    city: "Parnamirim",
    photos: ["land", "pool", "land"],
    ageDays: 11,
  },
];
