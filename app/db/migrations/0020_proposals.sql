CREATE TABLE "deal_splits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deal_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"creci" text,
	"percent" numeric(5, 2) NOT NULL,
	CONSTRAINT "deal_splits_name_length" CHECK (char_length(name) between 2 and 120),
	CONSTRAINT "deal_splits_creci_length" CHECK (creci is null or char_length(creci) between 1 and 30),
	CONSTRAINT "deal_splits_percent_range" CHECK (percent > 0 and percent <= 100)
);
--> statement-breakpoint
CREATE TABLE "deals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"proposal_id" uuid NOT NULL,
	"lead_id" uuid NOT NULL,
	"property_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"final_value_cents" bigint NOT NULL,
	"closed_on" date NOT NULL,
	"commission_percent" numeric(5, 2) NOT NULL,
	"commission_cents" bigint NOT NULL,
	"commission_status" text DEFAULT 'a_receber' NOT NULL,
	"commission_due_on" date,
	"commission_paid_on" date,
	"created_by" text,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"undone_at" timestamp with time zone,
	"undone_by_name" text,
	"undo_reason" text,
	CONSTRAINT "deals_kind_valid" CHECK (kind in ('venda', 'aluguel')),
	CONSTRAINT "deals_commission_status_valid" CHECK (commission_status in ('a_receber', 'recebida')),
	CONSTRAINT "deals_final_value_range" CHECK (final_value_cents between 1 and 100000000000),
	CONSTRAINT "deals_commission_percent_range" CHECK (commission_percent between 0 and 100),
	CONSTRAINT "deals_commission_range" CHECK (commission_cents between 0 and 100000000000),
	CONSTRAINT "deals_paid_when_received" CHECK ((commission_status = 'recebida') = (commission_paid_on is not null)),
	CONSTRAINT "deals_undo_reason_length" CHECK (undo_reason is null or char_length(undo_reason) <= 500)
);
--> statement-breakpoint
CREATE TABLE "proposal_offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"proposal_id" uuid NOT NULL,
	"party" text NOT NULL,
	"amount_cents" bigint,
	"note" text,
	"actor_id" text,
	"actor_name" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "proposal_offers_party_valid" CHECK (party in ('cliente', 'proprietario')),
	CONSTRAINT "proposal_offers_amount_range" CHECK (amount_cents is null or amount_cents between 1 and 100000000000),
	CONSTRAINT "proposal_offers_note_length" CHECK (note is null or char_length(note) <= 500)
);
--> statement-breakpoint
CREATE TABLE "proposals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lead_id" uuid NOT NULL,
	"property_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'em_negociacao' NOT NULL,
	"amount_cents" bigint,
	"cash_cents" bigint,
	"financing_cents" bigint,
	"fgts_cents" bigint,
	"exchange_cents" bigint,
	"guarantee" text,
	"starts_on" date,
	"conditions" text,
	"valid_until" date NOT NULL,
	"created_by" text,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"anonymized_at" timestamp with time zone,
	CONSTRAINT "proposals_kind_valid" CHECK (kind in ('venda', 'aluguel')),
	CONSTRAINT "proposals_status_valid" CHECK (status in ('em_negociacao', 'aceita', 'recusada', 'expirada')),
	CONSTRAINT "proposals_guarantee_valid" CHECK (guarantee is null or guarantee in ('fiador', 'seguro_fianca', 'caucao', 'titulo_capitalizacao')),
	CONSTRAINT "proposals_amount_present" CHECK (amount_cents is not null or anonymized_at is not null),
	CONSTRAINT "proposals_amounts_range" CHECK ((amount_cents is null or amount_cents between 1 and 100000000000) and (cash_cents is null or cash_cents between 0 and 100000000000) and (financing_cents is null or financing_cents between 0 and 100000000000) and (fgts_cents is null or fgts_cents between 0 and 100000000000) and (exchange_cents is null or exchange_cents between 0 and 100000000000)),
	CONSTRAINT "proposals_conditions_length" CHECK (conditions is null or char_length(conditions) <= 2000)
);
--> statement-breakpoint
ALTER TABLE "deal_splits" ADD CONSTRAINT "deal_splits_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_offers" ADD CONSTRAINT "proposal_offers_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deal_splits_deal_idx" ON "deal_splits" USING btree ("deal_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "deals_standing_proposal_idx" ON "deals" USING btree ("proposal_id") WHERE undone_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "deals_standing_property_idx" ON "deals" USING btree ("property_id") WHERE undone_at is null;--> statement-breakpoint
CREATE INDEX "deals_lead_idx" ON "deals" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "deals_closed_on_idx" ON "deals" USING btree ("closed_on");--> statement-breakpoint
CREATE INDEX "deals_commission_due_idx" ON "deals" USING btree ("commission_due_on") WHERE undone_at is null and commission_status = 'a_receber';--> statement-breakpoint
CREATE INDEX "proposal_offers_proposal_idx" ON "proposal_offers" USING btree ("proposal_id","at");--> statement-breakpoint
CREATE INDEX "proposals_lead_idx" ON "proposals" USING btree ("lead_id","created_at");--> statement-breakpoint
CREATE INDEX "proposals_property_idx" ON "proposals" USING btree ("property_id","created_at");--> statement-breakpoint
CREATE INDEX "proposals_open_idx" ON "proposals" USING btree ("valid_until") WHERE status = 'em_negociacao';