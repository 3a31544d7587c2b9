DROP VIEW "public"."properties_public";--> statement-breakpoint
ALTER TABLE "leads" DROP CONSTRAINT "leads_origin_valid";--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "portal_name" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "portal_lead_id" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "portal_temperature" text;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "publish_to_portals" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "street_address" text;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "cep" text;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "display_address" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "leads_portal_lead_idx" ON "leads" USING btree ("portal_name","portal_lead_id") WHERE portal_lead_id is not null;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_portal_name_length" CHECK (portal_name is null or char_length(portal_name) between 1 and 60);--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_portal_lead_id_length" CHECK (portal_lead_id is null or char_length(portal_lead_id) between 1 and 200);--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_portal_temperature_length" CHECK (portal_temperature is null or char_length(portal_temperature) between 1 and 30);--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_origin_valid" CHECK (origin in ('site', 'whatsapp', 'indicacao', 'outro', 'portal'));--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_street_address_length" CHECK (street_address is null or char_length(street_address) between 3 and 200);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_cep_format" CHECK (cep is null or cep ~ '^[0-9]{5}-[0-9]{3}$');--> statement-breakpoint
CREATE VIEW "public"."properties_public" AS (select "id", "codigo", "title", "description", "type", "purpose", "status", "featured", "price", "area", "bedrooms", "bathrooms", "parking_spaces", "neighborhood", "city", "state", "images", "created_at", "updated_at", case when "display_address" then "street_address" end as "street_address", case when "display_address" then "cep" end as "cep" from "properties");