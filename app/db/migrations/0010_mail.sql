ALTER TABLE "outbox" DROP CONSTRAINT "outbox_lead_id_leads_id_fk";
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "reply_to" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "link_token" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- hand-written (mail)
-- New-lead alerts whose lead was deleted before deletion cascaded (lead_id was set to null): the
-- lead is gone, so its copy in the alert goes too, and it is never sent.
DELETE FROM "outbox" WHERE "kind" = 'lead-alert' AND "lead_id" IS NULL;
