CREATE TABLE "whatsapp_clicks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"page" text NOT NULL,
	"property_id" uuid,
	CONSTRAINT "whatsapp_clicks_page_valid" CHECK (page in ('home', 'lista', 'imovel', 'bairro', 'contato', 'sobre', 'favoritos', 'privacidade', 'outra'))
);
--> statement-breakpoint
ALTER TABLE "whatsapp_clicks" ADD CONSTRAINT "whatsapp_clicks_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "whatsapp_clicks_at_idx" ON "whatsapp_clicks" USING btree ("at");--> statement-breakpoint
CREATE INDEX "whatsapp_clicks_property_idx" ON "whatsapp_clicks" USING btree ("property_id","at") WHERE property_id is not null;