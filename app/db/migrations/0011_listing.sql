DROP VIEW "public"."properties_public";--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "condo_fee" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "iptu_yearly" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "suites" integer;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "total_area" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "floor" integer;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "total_floors" integer;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "year_built" integer;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "furnished" text;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "pets_allowed" boolean;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "accepts_financing" boolean;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "accepts_fgts" boolean;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "accepts_exchange" boolean;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "rental_guarantees" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "features" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "address_number" text;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "address_complement" text;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "video_url" text;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "tour_url" text;--> statement-breakpoint
CREATE INDEX "properties_suites_idx" ON "properties" USING btree ("suites") WHERE suites is not null;--> statement-breakpoint
CREATE INDEX "properties_area_idx" ON "properties" USING btree ("area") WHERE area is not null;--> statement-breakpoint
CREATE INDEX "properties_total_area_idx" ON "properties" USING btree ("total_area") WHERE total_area is not null;--> statement-breakpoint
CREATE INDEX "properties_condo_fee_idx" ON "properties" USING btree ("condo_fee") WHERE condo_fee is not null;--> statement-breakpoint
CREATE INDEX "properties_furnished_idx" ON "properties" USING btree ("furnished") WHERE furnished is not null;--> statement-breakpoint
CREATE INDEX "properties_accepts_financing_idx" ON "properties" USING btree ("featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE accepts_financing is true;--> statement-breakpoint
CREATE INDEX "properties_features_idx" ON "properties" USING gin ("features");--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_condo_fee_range" CHECK (condo_fee is null or condo_fee between 0 and 100000);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_iptu_yearly_range" CHECK (iptu_yearly is null or iptu_yearly between 0 and 1000000);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_suites_range" CHECK (suites is null or suites between 0 and 999);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_suites_within_bedrooms" CHECK (suites is null or suites <= coalesce(bedrooms, 0));--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_total_area_range" CHECK (total_area is null or total_area between 0 and 10000000);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_floor_range" CHECK (floor is null or floor between 0 and 200);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_total_floors_range" CHECK (total_floors is null or total_floors between 1 and 200);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_floor_within_building" CHECK (floor is null or total_floors is null or floor <= total_floors);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_year_built_range" CHECK (year_built is null or year_built between 1800 and 2200);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_furnished_valid" CHECK (furnished is null or furnished in ('mobiliado', 'semimobiliado', 'sem_mobilia'));--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_rental_guarantees_valid" CHECK (rental_guarantees <@ array['fiador', 'seguro_fianca', 'caucao', 'titulo_capitalizacao']::text[]);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_features_valid" CHECK (features <@ array['varanda', 'varanda_gourmet', 'piscina_privativa', 'ar_condicionado', 'armarios_planejados', 'cozinha_americana', 'closet', 'escritorio', 'area_servico', 'dependencia_empregada', 'lavabo', 'quintal', 'jardim', 'churrasqueira', 'energia_solar', 'hidromassagem', 'vista_mar', 'edicula', 'deposito', 'mezanino', 'piscina', 'academia', 'salao_festas', 'espaco_gourmet', 'playground', 'brinquedoteca', 'salao_jogos', 'quadra_poliesportiva', 'quadra_tenis', 'quadra_areia', 'sauna', 'pista_caminhada', 'espaco_pet', 'portaria_24h', 'seguranca_24h', 'cameras_seguranca', 'condominio_fechado', 'elevador', 'gerador', 'gas_encanado', 'bicicletario', 'vaga_visitantes', 'carregador_eletrico', 'coworking']::text[]);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_address_number_length" CHECK (address_number is null or char_length(address_number) between 1 and 20);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_address_complement_length" CHECK (address_complement is null or char_length(address_complement) between 1 and 100);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_latitude_range" CHECK (latitude is null or latitude between -90 and 90);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_longitude_range" CHECK (longitude is null or longitude between -180 and 180);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_coordinates_together" CHECK ((latitude is null) = (longitude is null));--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_video_url_format" CHECK (video_url is null or (char_length(video_url) <= 500 and video_url like 'https://%'));--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_tour_url_format" CHECK (tour_url is null or (char_length(tour_url) <= 500 and tour_url like 'https://%'));--> statement-breakpoint
CREATE VIEW "public"."properties_public" AS (select "id", "codigo", "title", "description", "type", "purpose", "status", "featured", "price", "area", "bedrooms", "bathrooms", "parking_spaces", "neighborhood", "city", "state", "images", "created_at", "updated_at", case when "display_address" then "street_address" end as "street_address", case when "display_address" then "cep" end as "cep", "condo_fee", "iptu_yearly", "suites", "total_area", "floor", "total_floors", "year_built", "furnished", "pets_allowed", "accepts_financing", "accepts_fgts", "accepts_exchange", "rental_guarantees", "features", "video_url", "tour_url", case when "display_address" then "address_number" end as "address_number", case when "display_address" then "address_complement" end as "address_complement", case when "display_address" then "latitude" end as "latitude", case when "display_address" then "longitude" end as "longitude" from "properties");--> statement-breakpoint
-- hand-written (listing, issue 22)
-- Which area is which: the spec's `area` (kept, never renamed) is the ÁREA ÚTIL, the usable floor
-- area inside the walls that VRSync calls LivingArea (a plot's area for terrenos, sent as LotArea);
-- the new `total_area` is the ÁREA TOTAL (a flat's private plus shared area, a house's plot).
-- Existing values stay in `area`: they were entered as "Área (m²)", which brokers give as the área
-- útil, and the feed already sent them as LivingArea. Money: condo_fee in R$ per month, iptu_yearly
-- in R$ per year (as the municipal bill states it); docs/decisions/002 and 016.
COMMENT ON COLUMN "properties"."area" IS 'Área útil em m² (VRSync LivingArea; terrenos: área do lote, LotArea). Spec name kept.';--> statement-breakpoint
COMMENT ON COLUMN "properties"."total_area" IS 'Área total em m² (apartamento: privativa + comum; casa: terreno).';--> statement-breakpoint
COMMENT ON COLUMN "properties"."condo_fee" IS 'Condomínio em R$ por mês.';--> statement-breakpoint
COMMENT ON COLUMN "properties"."iptu_yearly" IS 'IPTU em R$ por ano (por mês = /12).';
