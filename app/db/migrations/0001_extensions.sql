-- Accent- and case-insensitive neighbourhood search ('petropolis' finds Petrópolis) without
-- hand-written folding. Both ship with PostgreSQL's contrib and with PGlite.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
