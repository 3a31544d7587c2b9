CREATE TABLE "property_status_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"property_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor_id" text,
	"kind" text NOT NULL,
	CONSTRAINT "property_status_events_kind_valid" CHECK (kind in ('created', 'status', 'backfill'))
);
--> statement-breakpoint
CREATE TABLE "property_views" (
	"property_id" uuid NOT NULL,
	"day" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "property_views_property_id_day_pk" PRIMARY KEY("property_id","day"),
	CONSTRAINT "property_views_positive" CHECK (views >= 0)
);
--> statement-breakpoint
ALTER TABLE "property_status_events" ADD CONSTRAINT "property_status_events_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_views" ADD CONSTRAINT "property_views_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "property_status_events_to_status_idx" ON "property_status_events" USING btree ("to_status","at");--> statement-breakpoint
CREATE INDEX "property_status_events_property_idx" ON "property_status_events" USING btree ("property_id","at");--> statement-breakpoint
CREATE INDEX "property_views_day_idx" ON "property_views" USING btree ("day");--> statement-breakpoint
-- The property status history (issue 12): its creation and every status change, whoever makes
-- it (CRM, CLI, SQL console). The actor is the transaction's app.actor_id (setActor), like the
-- lead timeline of migration 0005; unset means "sistema".
CREATE OR REPLACE FUNCTION record_property_status() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO property_status_events (property_id, kind, at, to_status, actor_id)
    VALUES (NEW.id, 'created', NEW.created_at, NEW.status, nullif(current_setting('app.actor_id', true), ''));
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    INSERT INTO property_status_events (property_id, kind, from_status, to_status, actor_id)
    VALUES (NEW.id, 'status', OLD.status, NEW.status, nullif(current_setting('app.actor_id', true), ''));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER properties_record_status
  AFTER INSERT OR UPDATE OF status ON properties
  FOR EACH ROW EXECUTE FUNCTION record_property_status();
--> statement-breakpoint
-- Properties stored before the history existed: their current status, dated by their last update
-- (the best date there is: a sale made before this migration counts from then).
INSERT INTO property_status_events (property_id, kind, at, to_status)
SELECT id, 'backfill', updated_at, status FROM properties;
