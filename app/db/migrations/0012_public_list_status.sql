DROP INDEX "properties_filters_idx";--> statement-breakpoint
CREATE INDEX "properties_filters_idx" ON "properties" USING btree ("type","purpose","bedrooms","parking_spaces","price","status");