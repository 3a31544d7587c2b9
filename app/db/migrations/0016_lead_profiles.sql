CREATE TABLE "lead_matches_sent" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lead_id" uuid NOT NULL,
	"property_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text,
	"actor_name" text,
	"outbox_id" uuid,
	CONSTRAINT "lead_matches_sent_channel_valid" CHECK (channel in ('whatsapp', 'email'))
);
--> statement-breakpoint
CREATE TABLE "lead_profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lead_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"types" text[] DEFAULT '{}'::text[] NOT NULL,
	"neighborhoods" text[] DEFAULT '{}'::text[] NOT NULL,
	"neighborhood_keys" text[] DEFAULT '{}'::text[] NOT NULL,
	"price_min" numeric(14, 2),
	"price_max" numeric(14, 2),
	"min_bedrooms" integer,
	"min_suites" integer,
	"min_parking" integer,
	"min_area" numeric(12, 2),
	"features" text[] DEFAULT '{}'::text[] NOT NULL,
	"accepts_financing" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"match_types" text[] GENERATED ALWAYS AS (case when cardinality(types) = 0 then array['*']::text[] else types end) STORED NOT NULL,
	"match_neighborhoods" text[] GENERATED ALWAYS AS (case when cardinality(neighborhood_keys) = 0 then array['*']::text[] else neighborhood_keys end) STORED NOT NULL,
	CONSTRAINT "lead_profiles_purpose_valid" CHECK (purpose in ('venda', 'aluguel')),
	CONSTRAINT "lead_profiles_types_valid" CHECK (types <@ array['casa', 'apartamento', 'terreno', 'ponto_comercial']::text[]),
	CONSTRAINT "lead_profiles_features_valid" CHECK (features <@ array['varanda', 'varanda_gourmet', 'piscina_privativa', 'ar_condicionado', 'armarios_planejados', 'cozinha_americana', 'closet', 'escritorio', 'area_servico', 'dependencia_empregada', 'lavabo', 'quintal', 'jardim', 'churrasqueira', 'energia_solar', 'hidromassagem', 'vista_mar', 'edicula', 'deposito', 'mezanino', 'piscina', 'academia', 'salao_festas', 'espaco_gourmet', 'playground', 'brinquedoteca', 'salao_jogos', 'quadra_poliesportiva', 'quadra_tenis', 'quadra_areia', 'sauna', 'pista_caminhada', 'espaco_pet', 'portaria_24h', 'seguranca_24h', 'cameras_seguranca', 'condominio_fechado', 'elevador', 'gerador', 'gas_encanado', 'bicicletario', 'vaga_visitantes', 'carregador_eletrico', 'coworking']::text[]),
	CONSTRAINT "lead_profiles_types_count" CHECK (cardinality(types) <= 10),
	CONSTRAINT "lead_profiles_neighborhoods_count" CHECK (cardinality(neighborhoods) <= 10 and cardinality(neighborhood_keys) <= 10),
	CONSTRAINT "lead_profiles_features_count" CHECK (cardinality(features) <= 50),
	CONSTRAINT "lead_profiles_price_range" CHECK ((price_min is null or price_min >= 0) and (price_max is null or price_max >= 0) and (price_min is null or price_max is null or price_max >= price_min)),
	CONSTRAINT "lead_profiles_minimums" CHECK (coalesce(min_bedrooms, 0) between 0 and 50 and coalesce(min_suites, 0) between 0 and 50 and coalesce(min_parking, 0) between 0 and 50 and coalesce(min_area, 0) between 0 and 10000000)
);
--> statement-breakpoint
CREATE TABLE "property_price_drops" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"property_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"old_price" numeric(14, 2) NOT NULL,
	"new_price" numeric(14, 2) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lead_matches_sent" ADD CONSTRAINT "lead_matches_sent_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_matches_sent" ADD CONSTRAINT "lead_matches_sent_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_matches_sent" ADD CONSTRAINT "lead_matches_sent_outbox_id_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."outbox"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_profiles" ADD CONSTRAINT "lead_profiles_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_price_drops" ADD CONSTRAINT "property_price_drops_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_matches_sent_lead_idx" ON "lead_matches_sent" USING btree ("lead_id","sent_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "lead_matches_sent_pair_idx" ON "lead_matches_sent" USING btree ("property_id","lead_id");--> statement-breakpoint
CREATE INDEX "lead_profiles_lead_idx" ON "lead_profiles" USING btree ("lead_id","created_at");--> statement-breakpoint
CREATE INDEX "lead_profiles_match_idx" ON "lead_profiles" USING btree ("purpose","price_max");--> statement-breakpoint
CREATE INDEX "lead_profiles_types_idx" ON "lead_profiles" USING gin ("match_types");--> statement-breakpoint
CREATE INDEX "lead_profiles_neighborhoods_idx" ON "lead_profiles" USING gin ("match_neighborhoods");--> statement-breakpoint
CREATE INDEX "property_price_drops_at_idx" ON "property_price_drops" USING btree ("at","property_id");--> statement-breakpoint
-- hand-written (lead_profiles): a listing's price going down, whoever lowers it (CRM, CLI, SQL).
CREATE OR REPLACE FUNCTION record_property_price_drop() RETURNS trigger AS $$
BEGIN
  IF NEW.price < OLD.price THEN
    INSERT INTO property_price_drops (property_id, old_price, new_price) VALUES (NEW.id, OLD.price, NEW.price);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER properties_record_price_drop
  AFTER UPDATE OF price ON properties
  FOR EACH ROW WHEN (NEW.price < OLD.price) EXECUTE FUNCTION record_property_price_drop();
