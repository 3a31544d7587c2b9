CREATE TABLE "neighbourhood_texts" (
	"slug" text PRIMARY KEY NOT NULL,
	"text" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	CONSTRAINT "neighbourhood_texts_slug_valid" CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 120),
	CONSTRAINT "neighbourhood_texts_text_length" CHECK (char_length(text) between 1 and 1500)
);

--> statement-breakpoint
-- hand-written (bairros): an edited neighbourhood text tells every app process, as a settings
-- change does (migration 0002's function), so each drops its public page cache and the next
-- request shows the new text.
CREATE TRIGGER neighbourhood_texts_notify_change
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON neighbourhood_texts
  FOR EACH STATEMENT EXECUTE FUNCTION notify_table_change();
