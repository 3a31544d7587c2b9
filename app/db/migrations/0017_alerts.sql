CREATE TABLE "listing_alert_digests" (
	"alert_id" uuid NOT NULL,
	"day" date NOT NULL,
	"listings" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "listing_alert_digests_alert_id_day_pk" PRIMARY KEY("alert_id","day")
);
--> statement-breakpoint
CREATE TABLE "listing_alert_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"alert_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listing_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"query" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"lead_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_sent_at" timestamp with time zone,
	CONSTRAINT "listing_alerts_status_valid" CHECK (status in ('pending', 'confirmed')),
	CONSTRAINT "listing_alerts_email_length" CHECK (char_length(email) between 3 and 255),
	CONSTRAINT "listing_alerts_phone_length" CHECK (phone is null or char_length(phone) between 10 and 20),
	CONSTRAINT "listing_alerts_query_length" CHECK (char_length(query) <= 1000)
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "list_unsubscribe" text;--> statement-breakpoint
ALTER TABLE "listing_alert_digests" ADD CONSTRAINT "listing_alert_digests_alert_id_listing_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."listing_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_alert_tokens" ADD CONSTRAINT "listing_alert_tokens_alert_id_listing_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."listing_alerts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_alerts" ADD CONSTRAINT "listing_alerts_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listing_alert_tokens_email_idx" ON "listing_alert_tokens" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "listing_alert_tokens_created_idx" ON "listing_alert_tokens" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "listing_alerts_email_query_idx" ON "listing_alerts" USING btree (lower("email"),"query");--> statement-breakpoint
CREATE INDEX "listing_alerts_status_idx" ON "listing_alerts" USING btree ("status","created_at");