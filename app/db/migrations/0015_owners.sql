CREATE TABLE "owner_report_runs" (
	"owner_id" uuid NOT NULL,
	"property_id" uuid NOT NULL,
	"period" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "owner_report_runs_owner_id_property_id_period_pk" PRIMARY KEY("owner_id","property_id","period")
);
--> statement-breakpoint
CREATE TABLE "owners" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"full_name" text NOT NULL,
	"phone" text,
	"email" text,
	"document" text,
	"notes" text,
	"report_opt_out" boolean DEFAULT false NOT NULL,
	"anonymized_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "owners_full_name_length" CHECK (char_length(full_name) between 2 and 120),
	CONSTRAINT "owners_phone_length" CHECK (phone is null or char_length(phone) <= 30),
	CONSTRAINT "owners_email_length" CHECK (email is null or char_length(email) <= 255),
	CONSTRAINT "owners_document_digits" CHECK (document is null or document ~ '^([0-9]{11}|[0-9]{14})$'),
	CONSTRAINT "owners_notes_length" CHECK (notes is null or char_length(notes) <= 2000)
);
--> statement-breakpoint
CREATE TABLE "property_captacao" (
	"property_id" uuid PRIMARY KEY NOT NULL,
	"authorization_type" text NOT NULL,
	"starts_on" date,
	"ends_on" date,
	"commission" numeric(5, 2),
	"keys_location" text,
	"report_note" text,
	"document_key" text,
	"document_size" integer,
	"document_uploaded_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "property_captacao_authorization_valid" CHECK (authorization_type in ('exclusiva', 'nao_exclusiva')),
	CONSTRAINT "property_captacao_dates" CHECK (starts_on is null or ends_on is null or ends_on >= starts_on),
	CONSTRAINT "property_captacao_commission_range" CHECK (commission is null or (commission >= 0 and commission <= 100)),
	CONSTRAINT "property_captacao_keys_length" CHECK (keys_location is null or char_length(keys_location) <= 200),
	CONSTRAINT "property_captacao_report_note_length" CHECK (report_note is null or char_length(report_note) <= 1000)
);
--> statement-breakpoint
CREATE TABLE "property_owners" (
	"property_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "property_owners_property_id_owner_id_pk" PRIMARY KEY("property_id","owner_id")
);
--> statement-breakpoint
ALTER TABLE "owner_report_runs" ADD CONSTRAINT "owner_report_runs_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owner_report_runs" ADD CONSTRAINT "owner_report_runs_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_captacao" ADD CONSTRAINT "property_captacao_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_owners" ADD CONSTRAINT "property_owners_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_owners" ADD CONSTRAINT "property_owners_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "owners_name_idx" ON "owners" USING btree ("full_name");--> statement-breakpoint
CREATE INDEX "owners_document_idx" ON "owners" USING btree ("document");--> statement-breakpoint
CREATE INDEX "property_captacao_ends_on_idx" ON "property_captacao" USING btree ("ends_on");--> statement-breakpoint
CREATE INDEX "property_owners_owner_idx" ON "property_owners" USING btree ("owner_id");