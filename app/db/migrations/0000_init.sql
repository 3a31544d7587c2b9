CREATE TABLE "account" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"full_name" text NOT NULL,
	"phone" text NOT NULL,
	"email" text,
	"interest_type" text DEFAULT 'comprar' NOT NULL,
	"property_type" text,
	"origin" text DEFAULT 'site' NOT NULL,
	"status" text DEFAULT 'novo' NOT NULL,
	"notes" text,
	"property_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leads_full_name_length" CHECK (char_length(full_name) between 2 and 100),
	CONSTRAINT "leads_phone_length" CHECK (char_length(phone) between 10 and 20),
	CONSTRAINT "leads_email_length" CHECK (email is null or char_length(email) <= 255),
	CONSTRAINT "leads_notes_length" CHECK (notes is null or char_length(notes) <= 1000),
	CONSTRAINT "leads_interest_type_valid" CHECK (interest_type in ('comprar', 'alugar', 'vender')),
	CONSTRAINT "leads_property_type_valid" CHECK (property_type is null or property_type in ('casa', 'apartamento', 'terreno', 'ponto_comercial')),
	CONSTRAINT "leads_origin_valid" CHECK (origin in ('site', 'whatsapp', 'indicacao', 'outro')),
	CONSTRAINT "leads_status_valid" CHECK (status in ('novo', 'em_atendimento', 'convertido', 'perdido'))
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" text PRIMARY KEY NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "properties" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"codigo" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"type" text NOT NULL,
	"purpose" text NOT NULL,
	"status" text DEFAULT 'disponivel' NOT NULL,
	"featured" boolean DEFAULT false NOT NULL,
	"price" numeric(14, 2) DEFAULT 0 NOT NULL,
	"area" numeric(12, 2),
	"bedrooms" integer,
	"bathrooms" integer,
	"parking_spaces" integer,
	"neighborhood" text NOT NULL,
	"city" text DEFAULT 'Natal' NOT NULL,
	"state" text DEFAULT 'RN' NOT NULL,
	"broker_partner" text,
	"images" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "properties_codigo_unique" UNIQUE("codigo"),
	CONSTRAINT "properties_codigo_length" CHECK (char_length(codigo) between 1 and 50),
	CONSTRAINT "properties_codigo_uppercase" CHECK (codigo = upper(codigo)),
	CONSTRAINT "properties_title_length" CHECK (char_length(title) between 5 and 200),
	CONSTRAINT "properties_description_length" CHECK (char_length(description) between 10 and 2000),
	CONSTRAINT "properties_type_valid" CHECK (type in ('casa', 'apartamento', 'terreno', 'ponto_comercial')),
	CONSTRAINT "properties_purpose_valid" CHECK (purpose in ('venda', 'aluguel')),
	CONSTRAINT "properties_status_valid" CHECK (status in ('disponivel', 'vendido', 'alugado', 'em_negociacao')),
	CONSTRAINT "properties_price_not_negative" CHECK (price >= 0),
	CONSTRAINT "properties_area_not_negative" CHECK (area is null or area >= 0),
	CONSTRAINT "properties_bedrooms_not_negative" CHECK (bedrooms is null or bedrooms >= 0),
	CONSTRAINT "properties_bathrooms_not_negative" CHECK (bathrooms is null or bathrooms >= 0),
	CONSTRAINT "properties_parking_not_negative" CHECK (parking_spaces is null or parking_spaces >= 0),
	CONSTRAINT "properties_neighborhood_length" CHECK (char_length(neighborhood) between 2 and 100),
	CONSTRAINT "properties_city_length" CHECK (char_length(city) between 2 and 100),
	CONSTRAINT "properties_state_length" CHECK (char_length(state) = 2),
	CONSTRAINT "properties_broker_partner_length" CHECK (broker_partner is null or char_length(broker_partner) <= 100)
);
--> statement-breakpoint
CREATE TABLE "rate_limit" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"last_request" bigint NOT NULL,
	CONSTRAINT "rate_limit_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "session" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" text NOT NULL,
	CONSTRAINT "session_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"user_id" text PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_roles_role_valid" CHECK (role in ('admin', 'corretor'))
);
--> statement-breakpoint
CREATE TABLE "verification" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account" ADD CONSTRAINT "account_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_user_id_idx" ON "account" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "leads_created_at_idx" ON "leads" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "leads_status_idx" ON "leads" USING btree ("status");--> statement-breakpoint
CREATE INDEX "properties_listing_order_idx" ON "properties" USING btree ("featured" DESC NULLS LAST,"created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "session_user_id_idx" ON "session" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "verification_identifier_idx" ON "verification" USING btree ("identifier");--> statement-breakpoint
CREATE VIEW "public"."properties_public" AS (select "id", "codigo", "title", "description", "type", "purpose", "status", "featured", "price", "area", "bedrooms", "bathrooms", "parking_spaces", "neighborhood", "city", "state", "images", "created_at", "updated_at" from "properties");