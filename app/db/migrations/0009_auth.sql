ALTER TABLE "invitation" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "audit_log_sign_in_idx" ON "audit_log" USING btree ("entity_id","at") WHERE action = 'auth.sign_in';--> statement-breakpoint
CREATE INDEX "invitation_invited_by_idx" ON "invitation" USING btree ("invited_by") WHERE accepted_at is null and revoked_at is null;