ALTER TABLE "leads" ADD COLUMN "visit_preferences" jsonb;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "ics_attachment" text;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "confirmation_sequence" integer;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "reminded_for" timestamp with time zone;--> statement-breakpoint
-- At most three preferred days, as the booking form offers (issue 25).
ALTER TABLE "leads" ADD CONSTRAINT "leads_visit_preferences_shape" CHECK (visit_preferences is null or (jsonb_typeof(visit_preferences) = 'array' and jsonb_array_length(visit_preferences) between 1 and 3));
