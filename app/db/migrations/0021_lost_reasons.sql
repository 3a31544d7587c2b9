ALTER TABLE "lead_events" ADD COLUMN "lost_reason" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "lost_reason" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "lost_note" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "lost_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "leads_lost_at_idx" ON "leads" USING btree ("lost_at") WHERE lost_at is not null;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_lost_reason_length" CHECK (lost_reason is null or char_length(lost_reason) between 1 and 60);--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_lost_note_length" CHECK (lost_note is null or char_length(lost_note) <= 500);--> statement-breakpoint
-- Issue 24, item 3 (decision 027): a move to 'perdido' (or a lead created lost) records the
-- reason in its timeline row, and the note in the row's body (personal text: the privacy tools
-- export and anonymise lead_events.body already). Otherwise as migration 0005.
CREATE OR REPLACE FUNCTION record_lead_status() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO lead_events (lead_id, kind, at, actor_id, actor_name, to_status, lost_reason, body)
    VALUES (NEW.id, 'created', NEW.created_at, nullif(current_setting('app.actor_id', true), ''),
            nullif(current_setting('app.actor_name', true), ''), NEW.status,
            CASE WHEN NEW.status = 'perdido' THEN NEW.lost_reason END,
            CASE WHEN NEW.status = 'perdido' THEN NEW.lost_note END);
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    INSERT INTO lead_events (lead_id, kind, actor_id, actor_name, from_status, to_status, lost_reason, body)
    VALUES (NEW.id, 'status', nullif(current_setting('app.actor_id', true), ''),
            nullif(current_setting('app.actor_name', true), ''), OLD.status, NEW.status,
            CASE WHEN NEW.status = 'perdido' THEN NEW.lost_reason END,
            CASE WHEN NEW.status = 'perdido' THEN NEW.lost_note END);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Whoever writes (the app, the CLI, an SQL console): a lead becoming 'perdido' is dated then,
-- unless the writer dates it; a lead that is not 'perdido' carries no reason, note or date.
CREATE OR REPLACE FUNCTION lead_loss_columns() RETURNS trigger AS $$
BEGIN
  IF NEW.status = 'perdido' THEN
    IF TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM 'perdido' THEN
      NEW.lost_at := coalesce(NEW.lost_at, now());
    END IF;
  ELSE
    NEW.lost_reason := NULL;
    NEW.lost_note := NULL;
    NEW.lost_at := NULL;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER leads_loss_columns
  BEFORE INSERT OR UPDATE OF status, lost_reason, lost_note, lost_at ON leads
  FOR EACH ROW EXECUTE FUNCTION lead_loss_columns();
--> statement-breakpoint
-- Leads lost before reasons existed: lost when their timeline last says so (else when created),
-- reason unknown ('Não informado' in the reports).
UPDATE leads l SET lost_at = coalesce(
  (SELECT max(e.at) FROM lead_events e WHERE e.lead_id = l.id AND e.kind IN ('created', 'status') AND e.to_status = 'perdido'),
  l.created_at)
WHERE l.status = 'perdido';
