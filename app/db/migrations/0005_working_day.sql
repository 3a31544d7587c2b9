CREATE TABLE "calendar_feeds" (
	"user_id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_feeds_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "lead_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lead_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text,
	"actor_name" text,
	"from_status" text,
	"to_status" text,
	"body" text,
	"next_contact_at" timestamp with time zone,
	CONSTRAINT "lead_events_kind_valid" CHECK (kind in ('created', 'status', 'note', 'next_contact')),
	CONSTRAINT "lead_events_body_length" CHECK (body is null or char_length(body) <= 2000)
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "visits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lead_id" uuid NOT NULL,
	"property_id" uuid,
	"scheduled_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'agendada' NOT NULL,
	"notes" text,
	"created_by" text,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visits_status_valid" CHECK (status in ('agendada', 'realizada', 'cancelada')),
	CONSTRAINT "visits_notes_length" CHECK (notes is null or char_length(notes) <= 1000)
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "next_contact_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "lead_id" uuid;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_events" ADD CONSTRAINT "lead_events_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_events_lead_idx" ON "lead_events" USING btree ("lead_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "lead_events_status_idx" ON "lead_events" USING btree ("kind","at") WHERE kind = 'status';--> statement-breakpoint
CREATE INDEX "visits_scheduled_at_idx" ON "visits" USING btree ("scheduled_at","id");--> statement-breakpoint
CREATE INDEX "visits_lead_idx" ON "visits" USING btree ("lead_id","scheduled_at");--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leads_next_contact_idx" ON "leads" USING btree ("next_contact_at") WHERE next_contact_at is not null;--> statement-breakpoint
CREATE INDEX "leads_phone_digits_idx" ON "leads" USING btree (regexp_replace("phone", '\D', '', 'g'));--> statement-breakpoint
CREATE INDEX "leads_email_lower_idx" ON "leads" USING btree (lower("email")) WHERE email is not null;--> statement-breakpoint
CREATE INDEX "outbox_lead_idx" ON "outbox" USING btree ("lead_id") WHERE lead_id is not null;--> statement-breakpoint
-- The lead timeline's automatic rows (issue 11): a lead's creation and every status change,
-- whoever makes it (CRM screen, CLI, SQL console). The app names the actor for the transaction
-- with set_config('app.actor_id' / 'app.actor_name', ..., true); unset means "not a signed-in user".
CREATE OR REPLACE FUNCTION record_lead_status() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO lead_events (lead_id, kind, at, actor_id, actor_name, to_status)
    VALUES (NEW.id, 'created', NEW.created_at, nullif(current_setting('app.actor_id', true), ''),
            nullif(current_setting('app.actor_name', true), ''), NEW.status);
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    INSERT INTO lead_events (lead_id, kind, actor_id, actor_name, from_status, to_status)
    VALUES (NEW.id, 'status', nullif(current_setting('app.actor_id', true), ''),
            nullif(current_setting('app.actor_name', true), ''), OLD.status, NEW.status);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER leads_record_status
  AFTER INSERT OR UPDATE OF status ON leads
  FOR EACH ROW EXECUTE FUNCTION record_lead_status();
--> statement-breakpoint
-- Leads stored before the timeline existed start it with their creation (status then unknown).
INSERT INTO lead_events (lead_id, kind, at) SELECT id, 'created', created_at FROM leads;
--> statement-breakpoint
CREATE TRIGGER lead_events_notify_change
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON lead_events
  FOR EACH STATEMENT EXECUTE FUNCTION notify_table_change();
--> statement-breakpoint
CREATE TRIGGER visits_notify_change
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON visits
  FOR EACH STATEMENT EXECUTE FUNCTION notify_table_change();
--> statement-breakpoint
CREATE TRIGGER settings_notify_change
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON settings
  FOR EACH STATEMENT EXECUTE FUNCTION notify_table_change();
