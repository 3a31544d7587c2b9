CREATE TABLE "property_views_monthly" (
	"property_id" uuid NOT NULL,
	"month" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "property_views_monthly_property_id_month_pk" PRIMARY KEY("property_id","month")
);
--> statement-breakpoint
DROP INDEX "audit_log_at_idx";--> statement-breakpoint
ALTER TABLE "property_views_monthly" ADD CONSTRAINT "property_views_monthly_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "property_views_monthly_month_idx" ON "property_views_monthly" USING btree ("month");--> statement-breakpoint
CREATE INDEX "audit_log_at_id_idx" ON "audit_log" USING btree ("at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "lead_events_history_idx" ON "lead_events" USING btree ("lead_id","to_status","at") WHERE kind in ('created', 'status');--> statement-breakpoint
-- Issue 26: the monthly roll-up follows the daily counts, whoever writes them (the view batches,
-- a restore, an SQL console): each insert, change or removal adds its difference to the month.
CREATE OR REPLACE FUNCTION roll_up_property_views() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE property_views_monthly SET views = views - OLD.views
    WHERE property_id = OLD.property_id AND month = date_trunc('month', OLD.day)::date;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO property_views_monthly (property_id, month, views)
    VALUES (NEW.property_id, date_trunc('month', NEW.day)::date, NEW.views)
    ON CONFLICT (property_id, month) DO UPDATE SET views = property_views_monthly.views + excluded.views;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER property_views_roll_up
  AFTER INSERT OR UPDATE OR DELETE ON property_views
  FOR EACH ROW EXECUTE FUNCTION roll_up_property_views();
--> statement-breakpoint
INSERT INTO property_views_monthly (property_id, month, views)
SELECT property_id, date_trunc('month', day)::date, sum(views)::int FROM property_views GROUP BY 1, 2;
