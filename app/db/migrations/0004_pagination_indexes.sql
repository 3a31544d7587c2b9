-- Written by hand (the rest of this file is drizzle-kit's): "contains" searches need trigram
-- indexes on unaccent(lower(…)), but unaccent is only STABLE (its dictionary could change), and an
-- index expression must be IMMUTABLE. These wrappers name the dictionary and promise immutability;
-- queries call the very same functions, so the planner matches them to the indexes. The newline
-- between fields keeps a search from matching across two of them (searches never contain one).
-- Names inside the bodies are schema-qualified: PostgreSQL 17+ builds indexes with a search_path
-- of pg_catalog only.
CREATE OR REPLACE FUNCTION immutable_unaccent(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, value) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION property_search_text(codigo text, title text, neighborhood text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT public.immutable_unaccent(lower(coalesce(codigo, '') || E'\n' || coalesce(title, '') || E'\n' || coalesce(neighborhood, ''))) $$;
--> statement-breakpoint
-- The phone twice: as typed ("(84) 99999-0000") and as digits only, so "8499999" finds it too.
CREATE OR REPLACE FUNCTION lead_search_text(full_name text, email text, phone text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT public.immutable_unaccent(lower(coalesce(full_name, '') || E'\n' || coalesce(email, '') || E'\n' || coalesce(phone, '') || E'\n' || regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g'))) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION user_search_text(name text, email text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT public.immutable_unaccent(lower(coalesce(name, '') || E'\n' || coalesce(email, ''))) $$;
--> statement-breakpoint
DROP INDEX "leads_created_at_idx";--> statement-breakpoint
DROP INDEX "leads_status_idx";--> statement-breakpoint
DROP INDEX "properties_listing_order_idx";--> statement-breakpoint
CREATE INDEX "leads_search_idx" ON "leads" USING gin (lead_search_text("full_name", "email", "phone") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "properties_created_at_idx" ON "properties" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "properties_filters_idx" ON "properties" USING btree ("type","purpose","bedrooms","parking_spaces","price");--> statement-breakpoint
CREATE INDEX "properties_neighborhood_search_idx" ON "properties" USING gin (immutable_unaccent(lower("neighborhood")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "properties_crm_search_idx" ON "properties" USING gin (property_search_text("codigo", "title", "neighborhood") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "user_search_idx" ON "user" USING gin (user_search_text("name", "email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_created_at_idx" ON "leads" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "leads_status_idx" ON "leads" USING btree ("status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "properties_listing_order_idx" ON "properties" USING btree ("featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);