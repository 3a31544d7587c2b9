-- Live updates (issue 5): every change to properties or leads, by the app, the CLI or a SQL
-- console, tells listening app processes which table changed. One notification per statement
-- (a bulk update is one event), delivered when the transaction commits.
CREATE OR REPLACE FUNCTION notify_table_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('app_changes', json_build_object('table', TG_TABLE_NAME, 'op', lower(TG_OP))::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER properties_notify_change
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON properties
  FOR EACH STATEMENT EXECUTE FUNCTION notify_table_change();
--> statement-breakpoint
CREATE TRIGGER leads_notify_change
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON leads
  FOR EACH STATEMENT EXECUTE FUNCTION notify_table_change();
