import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  pgView,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  FURNISHED_VALUES,
  LEAD_INTERESTS,
  LEAD_ORIGINS,
  LEAD_STATUSES,
  PROPERTY_FEATURES,
  PROPERTY_PURPOSES,
  PROPERTY_STATUSES,
  PROPERTY_TYPES,
  RENTAL_GUARANTEES,
  ROLES,
  WHATSAPP_PAGES,
} from "./values";
import { APPROX_LATITUDE_SQL, APPROX_LONGITUDE_SQL } from "./approx-position";
import { CAPTACAO_AUTHORIZATIONS } from "./values-owners";
import { COMMISSION_STATUSES, OFFER_PARTIES, PROPOSAL_STATUSES } from "./values-deals";


/**
 * The database, with the spec's table and column names kept as they are (ARCHITECTURE "Data").
 * Enum values are stored as the spec's lowercase strings; check constraints mirror the spec's
 * limits (§5) so that no path — CRM, CLI or a SQL console — can store what the forms would refuse.
 */

const inList = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((value) => `'${value}'`).join(", ")})`);
const nullOrInList = (column: string, values: readonly string[]) =>
  sql.raw(`${column} is null or ${column} in (${values.map((value) => `'${value}'`).join(", ")})`);
const lengthBetween = (column: string, min: number, max: number) =>
  sql.raw(`char_length(${column}) between ${min} and ${max}`);
const arrayWithin = (column: string, values: readonly string[]) =>
  sql.raw(`${column} <@ array[${values.map((value) => `'${value}'`).join(", ")}]::text[]`);

export const properties = pgTable(
  "properties",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    codigo: text("codigo").notNull().unique("properties_codigo_unique"),
    title: text("title").notNull(),
    description: text("description").notNull(),
    type: text("type", { enum: PROPERTY_TYPES }).notNull(),
    purpose: text("purpose", { enum: PROPERTY_PURPOSES }).notNull(),
    status: text("status", { enum: PROPERTY_STATUSES }).notNull().default("disponivel"),
    featured: boolean("featured").notNull().default(false),
    // numeric keeps cents exact; mode "number" makes both drivers hand back a JS number.
    price: numeric("price", { precision: 14, scale: 2, mode: "number" }).notNull().default(0),
    area: numeric("area", { precision: 12, scale: 2, mode: "number" }),
    bedrooms: integer("bedrooms"),
    bathrooms: integer("bathrooms"),
    parking_spaces: integer("parking_spaces"),
    neighborhood: text("neighborhood").notNull(),
    city: text("city").notNull().default("Natal"),
    state: text("state").notNull().default("RN"),
    broker_partner: text("broker_partner"),
    // One canonical URL per photo; every size follows from it (app/features/media/urls.ts).
    images: text("images").array().notNull().default(sql`'{}'::text[]`),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    // Not in the spec (issue 13): the portals' feed (VRSync). 'Publicar nos portais' is on for
    // new listings; the street address and CEP are optional, and shown (on the site and the
    // portals) only when 'Exibir endereço' is on.
    publish_to_portals: boolean("publish_to_portals").notNull().default(true),
    street_address: text("street_address"),
    cep: text("cep"),
    display_address: boolean("display_address").notNull().default(false),
    // Not in the spec (issue 22): the listing as the portals know it. All optional; null is "not
    // said" (old listings have every one empty). `area` (above) is the área útil; `total_area` the
    // área total. Money in reais: condomínio per month, IPTU per year. The value lists and limits
    // live in values.ts and features/properties/listing-schema.ts; docs/decisions/016.
    condo_fee: numeric("condo_fee", { precision: 12, scale: 2, mode: "number" }),
    iptu_yearly: numeric("iptu_yearly", { precision: 12, scale: 2, mode: "number" }),
    suites: integer("suites"),
    total_area: numeric("total_area", { precision: 12, scale: 2, mode: "number" }),
    // Andar (0 = térreo) and the building's floors: apartments and commercial units only.
    floor: integer("floor"),
    total_floors: integer("total_floors"),
    year_built: integer("year_built"),
    furnished: text("furnished", { enum: FURNISHED_VALUES }),
    pets_allowed: boolean("pets_allowed"),
    accepts_financing: boolean("accepts_financing"),
    accepts_fgts: boolean("accepts_fgts"),
    accepts_exchange: boolean("accepts_exchange"),
    rental_guarantees: text("rental_guarantees", { enum: RENTAL_GUARANTEES }).array().notNull().default(sql`'{}'::text[]`),
    features: text("features", { enum: PROPERTY_FEATURES }).array().notNull().default(sql`'{}'::text[]`),
    // Like the street: shown (site, portals' display) only with 'Exibir endereço'.
    address_number: text("address_number"),
    address_complement: text("address_complement"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    video_url: text("video_url"),
    tour_url: text("tour_url"),
  },
  (table) => [
    // Every list reads one page in one of these orders; id breaks ties so pages never overlap.
    index("properties_listing_order_idx").on(table.featured.desc().nullsFirst(), table.created_at.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index("properties_created_at_idx").on(table.created_at.desc().nullsFirst(), table.id.desc().nullsFirst()),
    // The public filters' columns: a filtered count reads this index alone, not the wide rows.
    // The status last (decision 017): the list leaves sold and rented listings out by default,
    // and without it each count would visit the rows to read their status.
    index("properties_filters_idx").on(table.type, table.purpose, table.bedrooms, table.parking_spaces, table.price, table.status),
    // Trigram indexes for "contains" searches; the functions are immutable wrappers of unaccent
    // (migration 0004), and queries must call them exactly as here (search-text.server.ts).
    index("properties_neighborhood_search_idx").using("gin", sql`immutable_unaccent(lower(${table.neighborhood})) gin_trgm_ops`),
    index("properties_crm_search_idx").using(
      "gin",
      sql`property_search_text(${table.codigo}, ${table.title}, ${table.neighborhood}) gin_trgm_ops`,
    ),
    // The site's 'Código' search (issue 13): a code contains what the visitor typed.
    index("properties_codigo_search_idx").using("gin", sql`${table.codigo} gin_trgm_ops`),
    // 'Imóveis semelhantes' (issue 13): available listings of one type and purpose walked by price,
    // in the same neighbourhood (compared as the neighbourhood filter compares it) and in any.
    index("properties_similar_idx")
      .on(table.type, table.purpose, table.price)
      .where(sql`status = 'disponivel'`),
    index("properties_similar_neighborhood_idx")
      .on(table.type, table.purpose, sql`immutable_unaccent(lower(${table.neighborhood}))`, table.price)
      .where(sql`status = 'disponivel'`),
    check("properties_codigo_length", lengthBetween("codigo", 1, 50)),
    check("properties_codigo_uppercase", sql.raw("codigo = upper(codigo)")),
    check("properties_title_length", lengthBetween("title", 5, 200)),
    check("properties_description_length", lengthBetween("description", 10, 2000)),
    check("properties_type_valid", inList("type", PROPERTY_TYPES)),
    check("properties_purpose_valid", inList("purpose", PROPERTY_PURPOSES)),
    check("properties_status_valid", inList("status", PROPERTY_STATUSES)),
    check("properties_price_not_negative", sql.raw("price >= 0")),
    check("properties_area_not_negative", sql.raw("area is null or area >= 0")),
    check("properties_bedrooms_not_negative", sql.raw("bedrooms is null or bedrooms >= 0")),
    check("properties_bathrooms_not_negative", sql.raw("bathrooms is null or bathrooms >= 0")),
    check("properties_parking_not_negative", sql.raw("parking_spaces is null or parking_spaces >= 0")),
    check("properties_neighborhood_length", lengthBetween("neighborhood", 2, 100)),
    check("properties_city_length", lengthBetween("city", 2, 100)),
    check("properties_state_length", sql.raw("char_length(state) = 2")),
    check("properties_street_address_length", sql.raw("street_address is null or char_length(street_address) between 3 and 200")),
    check("properties_cep_format", sql.raw("cep is null or cep ~ '^[0-9]{5}-[0-9]{3}$'")),
    // The public filters of issue 22 (suítes, área, condomínio, características, mobília, aceita
    // financiamento). Partial indexes leave out the listings that did not say, so old listings
    // and sparse fields cost writes nothing; features' GIN index keeps its pending list (fastupdate).
    // A query matches a partial index only with a predicate that implies it (`suites >= $1` does;
    // for accepts_financing write the literal `accepts_financing is true`, not a parameter).
    index("properties_suites_idx").on(table.suites).where(sql`suites is not null`),
    index("properties_area_idx").on(table.area).where(sql`area is not null`),
    index("properties_total_area_idx").on(table.total_area).where(sql`total_area is not null`),
    index("properties_condo_fee_idx").on(table.condo_fee).where(sql`condo_fee is not null`),
    index("properties_furnished_idx").on(table.furnished).where(sql`furnished is not null`),
    index("properties_accepts_financing_idx")
      .on(table.featured.desc().nullsFirst(), table.created_at.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`accepts_financing is true`),
    index("properties_features_idx").using("gin", table.features),
    check("properties_condo_fee_range", sql.raw("condo_fee is null or condo_fee between 0 and 100000")),
    check("properties_iptu_yearly_range", sql.raw("iptu_yearly is null or iptu_yearly between 0 and 1000000")),
    check("properties_suites_range", sql.raw("suites is null or suites between 0 and 999")),
    check("properties_suites_within_bedrooms", sql.raw("suites is null or suites <= coalesce(bedrooms, 0)")),
    check("properties_total_area_range", sql.raw("total_area is null or total_area between 0 and 10000000")),
    check("properties_floor_range", sql.raw("floor is null or floor between 0 and 200")),
    check("properties_total_floors_range", sql.raw("total_floors is null or total_floors between 1 and 200")),
    check("properties_floor_within_building", sql.raw("floor is null or total_floors is null or floor <= total_floors")),
    check("properties_year_built_range", sql.raw("year_built is null or year_built between 1800 and 2200")),
    check("properties_furnished_valid", nullOrInList("furnished", FURNISHED_VALUES)),
    check("properties_rental_guarantees_valid", arrayWithin("rental_guarantees", RENTAL_GUARANTEES)),
    check("properties_features_valid", arrayWithin("features", PROPERTY_FEATURES)),
    check("properties_address_number_length", sql.raw("address_number is null or char_length(address_number) between 1 and 20")),
    check("properties_address_complement_length", sql.raw("address_complement is null or char_length(address_complement) between 1 and 100")),
    check("properties_latitude_range", sql.raw("latitude is null or latitude between -90 and 90")),
    check("properties_longitude_range", sql.raw("longitude is null or longitude between -180 and 180")),
    check("properties_coordinates_together", sql.raw("(latitude is null) = (longitude is null)")),
    check("properties_video_url_format", sql.raw("video_url is null or (char_length(video_url) <= 500 and video_url like 'https://%')")),
    check("properties_tour_url_format", sql.raw("tour_url is null or (char_length(tour_url) <= 500 and tour_url like 'https://%')")),
    check(
      "properties_broker_partner_length",
      sql.raw("broker_partner is null or char_length(broker_partner) <= 100"),
    ),
  ],
);

/**
 * The public projection: every column but broker_partner. Public loaders read only this view,
 * so the partner's name cannot reach a visitor by accident.
 */
export const propertiesPublic = pgView("properties_public").as((qb) =>
  qb
    .select({
      id: properties.id,
      codigo: properties.codigo,
      title: properties.title,
      description: properties.description,
      type: properties.type,
      purpose: properties.purpose,
      status: properties.status,
      featured: properties.featured,
      price: properties.price,
      area: properties.area,
      bedrooms: properties.bedrooms,
      bathrooms: properties.bathrooms,
      parking_spaces: properties.parking_spaces,
      neighborhood: properties.neighborhood,
      city: properties.city,
      state: properties.state,
      images: properties.images,
      created_at: properties.created_at,
      updated_at: properties.updated_at,
      // The street and CEP reach visitors only when the broker chose 'Exibir endereço'.
      street_address: sql<string | null>`case when ${properties.display_address} then ${properties.street_address} end`.as("street_address"),
      cep: sql<string | null>`case when ${properties.display_address} then ${properties.cep} end`.as("cep"),
      // Issue 22: the listing's public details; the number, complement and map position follow the
      // street (only with 'Exibir endereço'). An approximate position for hidden addresses is the
      // map's business (issue 22, item 4), computed here in SQL when it comes.
      condo_fee: properties.condo_fee,
      iptu_yearly: properties.iptu_yearly,
      suites: properties.suites,
      total_area: properties.total_area,
      floor: properties.floor,
      total_floors: properties.total_floors,
      year_built: properties.year_built,
      furnished: properties.furnished,
      pets_allowed: properties.pets_allowed,
      accepts_financing: properties.accepts_financing,
      accepts_fgts: properties.accepts_fgts,
      accepts_exchange: properties.accepts_exchange,
      rental_guarantees: properties.rental_guarantees,
      features: properties.features,
      video_url: properties.video_url,
      tour_url: properties.tour_url,
      address_number: sql<string | null>`case when ${properties.display_address} then ${properties.address_number} end`.as("address_number"),
      address_complement: sql<string | null>`case when ${properties.display_address} then ${properties.address_complement} end`.as(
        "address_complement",
      ),
      latitude: sql<number | null>`case when ${properties.display_address} then ${properties.latitude} end`.as("latitude"),
      longitude: sql<number | null>`case when ${properties.display_address} then ${properties.longitude} end`.as("longitude"),
      // Issue 22, item 4: with the address hidden, a point 150–400 m off the exact one, stable per
      // listing (md5 of the id); null otherwise. db/approx-position.ts, decision 018.
      approx_latitude: sql<number | null>`${sql.raw(APPROX_LATITUDE_SQL)}`.as("approx_latitude"),
      approx_longitude: sql<number | null>`${sql.raw(APPROX_LONGITUDE_SQL)}`.as("approx_longitude"),
    })
    .from(properties),
);

export const leads = pgTable(
  "leads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    full_name: text("full_name").notNull(),
    phone: text("phone").notNull(),
    email: text("email"),
    interest_type: text("interest_type", { enum: LEAD_INTERESTS }).notNull().default("comprar"),
    property_type: text("property_type", { enum: PROPERTY_TYPES }),
    origin: text("origin", { enum: LEAD_ORIGINS }).notNull().default("site"),
    status: text("status", { enum: LEAD_STATUSES }).notNull().default("novo"),
    notes: text("notes"),
    // Not in the spec: the property a visit booking was made for, so the broker knows which one.
    property_id: uuid("property_id").references(() => properties.id, { onDelete: "set null" }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // Not in the spec (issue 11): when the broker means to call back ('Próximo contato').
    next_contact_at: timestamp("next_contact_at", { withTimezone: true }),
    // Not in the spec (issue 13): a portal's lead (origin 'portal'): which portal sent it, its
    // own id (the portals retry, so one id is one lead) and the temperature it gave.
    portal_name: text("portal_name"),
    portal_lead_id: text("portal_lead_id"),
    portal_temperature: text("portal_temperature"),
    // Issue 24, item 3 (decision 027): why a lead was lost, while it is 'perdido'. The reason is
    // the label chosen from the settings' list (kept as text, so a reason later removed from the
    // list still reads on old leads); the note is the broker's free text about the person.
    // Moving the lead out of 'perdido' clears all three.
    lost_reason: text("lost_reason"),
    lost_note: text("lost_note"),
    lost_at: timestamp("lost_at", { withTimezone: true }),
    // Not in the spec (issue 25): the days and periods a visitor prefers for the visit (booking
    // form), [{ day: "2026-12-01", period: "manha" }, …], at most 3; personal like the rest.
    visit_preferences: jsonb("visit_preferences").$type<{ day: string; period?: "manha" | "tarde" | "noite" }[]>(),
  },
  (table) => [
    index("leads_next_contact_idx").on(table.next_contact_at).where(sql`next_contact_at is not null`),
    // "The same person": leads whose phone digits or e-mail match (lead page), by index.
    index("leads_phone_digits_idx").on(sql`regexp_replace(${table.phone}, '\\D', '', 'g')`),
    index("leads_email_lower_idx").on(sql`lower(${table.email})`).where(sql`email is not null`),
    index("leads_created_at_idx").on(table.created_at.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index("leads_status_idx").on(table.status, table.created_at.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index("leads_search_idx").using("gin", sql`lead_search_text(${table.full_name}, ${table.email}, ${table.phone}) gin_trgm_ops`),
    check("leads_full_name_length", lengthBetween("full_name", 2, 100)),
    check("leads_phone_length", lengthBetween("phone", 10, 20)),
    check("leads_email_length", sql.raw("email is null or char_length(email) <= 255")),
    check("leads_notes_length", sql.raw("notes is null or char_length(notes) <= 1000")),
    check("leads_interest_type_valid", inList("interest_type", LEAD_INTERESTS)),
    check("leads_property_type_valid", nullOrInList("property_type", PROPERTY_TYPES)),
    check("leads_origin_valid", inList("origin", LEAD_ORIGINS)),
    uniqueIndex("leads_portal_lead_idx").on(table.portal_name, table.portal_lead_id).where(sql`portal_lead_id is not null`),
    check("leads_portal_name_length", sql.raw("portal_name is null or char_length(portal_name) between 1 and 60")),
    // The reports' 'Motivos de perda': lost leads by when they were lost.
    index("leads_lost_at_idx").on(table.lost_at).where(sql`lost_at is not null`),
    check("leads_lost_reason_length", sql.raw("lost_reason is null or char_length(lost_reason) between 1 and 60")),
    check("leads_lost_note_length", sql.raw("lost_note is null or char_length(lost_note) <= 500")),
    check("leads_portal_lead_id_length", sql.raw("portal_lead_id is null or char_length(portal_lead_id) between 1 and 200")),
    check("leads_portal_temperature_length", sql.raw("portal_temperature is null or char_length(portal_temperature) between 1 and 30")),
    check("leads_status_valid", inList("status", LEAD_STATUSES)),
  ],
);

// --- Authentication (better-auth's tables; property names are what its drizzle adapter expects) ---

export const user = pgTable(
  "user",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("user_search_idx").using("gin", sql`user_search_text(${table.name}, ${table.email}) gin_trgm_ops`)],
);

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
  },
  (table) => [index("session_user_id_idx").on(table.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("account_user_id_idx").on(table.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("verification_identifier_idx").on(table.identifier)],
);

/** better-auth's own rate-limit counters, in the database so that every process shares them. */
export const rateLimit = pgTable("rate_limit", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

/** The role of a user. The primary key makes "one row per user" a database fact. */
export const user_roles = pgTable(
  "user_roles",
  {
    user_id: text("user_id")
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text("role", { enum: ROLES }).notNull(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  () => [check("user_roles_role_valid", inList("role", ROLES))],
);

// --- Our own bookkeeping ---

/** Every stored photo, so that files no listing refers to can be found and removed. */
export const media = pgTable("media", {
  id: text("id").primaryKey(),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  bytes: integer("bytes").notNull(),
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Fixed-window counters for our own limits (lead submissions, failed sign-ins), shared by all processes. */
export const throttle = pgTable("throttle", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  window_started_at: timestamp("window_started_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Small facts about this installation, e.g. that the demo listings were seeded once already. */
export const app_meta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

// --- Hardening (issue 9): outgoing e-mail, invitations, audit trail ---

/**
 * Outgoing e-mail, one row per message, written in the same transaction as what causes it and
 * sent by a background worker (features/mail). A row is claimed by setting locked_until (with
 * FOR UPDATE SKIP LOCKED), so several processes never send the same message at once.
 */
export const outbox = pgTable(
  "outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** What kind of message (verify-email, reset-password, invite, …), for the CRM's list. */
    kind: text("kind").notNull(),
    to_address: text("to_address").notNull(),
    /** Where a reply goes (the new-lead alert: the lead's e-mail), a validated single address. */
    reply_to: text("reply_to"),
    subject: text("subject").notNull(),
    /** Account e-mails hold LINK_TOKEN_PLACEHOLDER where their link's token goes (sealed-link.server.ts). */
    text_body: text("text_body").notNull(),
    html_body: text("html_body"),
    /**
     * The link's token, sealed with a key derived from the auth secret (which no backup holds);
     * opened only to send, and cleared once the message is sent or given up.
     */
    link_token: text("link_token"),
    /** pending → sent, or failed after the last attempt. */
    status: text("status", { enum: ["pending", "sent", "failed"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    next_attempt_at: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    locked_until: timestamp("locked_until", { withTimezone: true }),
    /** The SMTP server's last answer (never the message's content). */
    last_error: text("last_error"),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sent_at: timestamp("sent_at", { withTimezone: true }),
    /** The lead a message is about (new-lead alert): its timeline lists it, and it goes with the lead. */
    lead_id: uuid("lead_id").references(() => leads.id, { onDelete: "cascade" }),
    /**
     * 'Avise-me' digests (decision 025): the List-Unsubscribe address, holding
     * LINK_TOKEN_PLACEHOLDER like the bodies; the sender adds the one-click headers.
     */
    list_unsubscribe: text("list_unsubscribe"),
    /** A visit's confirmation (issue 25): the .ics the sender attaches (nothing the mail does not say). */
    ics_attachment: text("ics_attachment"),
  },
  (table) => [
    index("outbox_due_idx").on(table.status, table.next_attempt_at),
    index("outbox_lead_idx").on(table.lead_id).where(sql`lead_id is not null`),
    check("outbox_status_valid", sql.raw("status in ('pending', 'sent', 'failed')")),
  ],
);

/** An admin's invitation to join the CRM with a role; the e-mailed link carries the token. */
export const invitation = pgTable(
  "invitation",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    role: text("role", { enum: ROLES }).notNull(),
    /** sha256 of the token in the link: a copy of the database does not hold usable links. */
    token_hash: text("token_hash").notNull().unique(),
    invited_by: text("invited_by").references(() => user.id, { onDelete: "set null" }),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    accepted_at: timestamp("accepted_at", { withTimezone: true }),
    /** An admin's 'Revogar', or the inviter losing admin (issue 21): the link no longer works. */
    revoked_at: timestamp("revoked_at", { withTimezone: true }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("invitation_role_valid", inList("role", ROLES)),
    // An inviter's pending invitations end when they lose admin or are deleted.
    index("invitation_invited_by_idx").on(table.invited_by).where(sql`accepted_at is null and revoked_at is null`),
  ],
);

/**
 * Who changed what in the CRM. For personal data (leads) only which fields changed, never the
 * values; actor_email is kept so the trail survives the user's deletion.
 */
export const audit_log = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actor_id: text("actor_id"),
    actor_email: text("actor_email"),
    /** e.g. property.create, lead.update, user.role, user.invite, backup.download */
    action: text("action").notNull(),
    entity: text("entity").notNull(),
    entity_id: text("entity_id"),
    details: jsonb("details"),
  },
  (table) => [
    // The trail's pages read newest first with the id as tie-break (issue 26: a decade of entries, no sort).
    index("audit_log_at_id_idx").on(table.at.desc().nullsFirst(), table.id.desc().nullsFirst()),
    // An account's successful sign-ins (issue 21): the addresses its owner is known to use.
    index("audit_log_sign_in_idx").on(table.entity_id, table.at).where(sql`action = 'auth.sign_in'`),
  ],
);

// --- The broker's working day (issue 11): lead timeline, visits, settings, calendar feeds ---

export const LEAD_EVENT_KINDS = ["created", "status", "note", "next_contact"] as const;

/**
 * A lead's timeline. "created" and "status" rows are written by database triggers (migration
 * 0005), so a status change is recorded whichever screen, CLI or SQL console makes it; the
 * actor comes from the transaction's app.actor_id / app.actor_name settings (withActor in
 * features/leads/timeline.server.ts), null when nobody signed in made the change. Visits and
 * e-mails have tables of their own and join the timeline when it is read.
 */
export const lead_events = pgTable(
  "lead_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    lead_id: uuid("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: LEAD_EVENT_KINDS }).notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actor_id: text("actor_id"),
    /** Kept so the timeline still says who after the user is removed. */
    actor_name: text("actor_name"),
    from_status: text("from_status"),
    to_status: text("to_status"),
    /** A staff note's text; for next_contact, nothing (the date is in next_contact_at). */
    body: text("body"),
    next_contact_at: timestamp("next_contact_at", { withTimezone: true }),
    /** A move to 'perdido': the reason chosen (its note, personal text, goes in body). */
    lost_reason: text("lost_reason"),
  },
  (table) => [
    index("lead_events_lead_idx").on(table.lead_id, table.at.desc()),
    index("lead_events_status_idx").on(table.kind, table.at).where(sql`kind = 'status'`),
    // The reports' funnel and times (issue 26): a cohort's status history read from the index alone.
    index("lead_events_history_idx").on(table.lead_id, table.to_status, table.at).where(sql`kind in ('created', 'status')`),
    check("lead_events_kind_valid", inList("kind", LEAD_EVENT_KINDS)),
    check("lead_events_body_length", sql.raw("body is null or char_length(body) <= 2000")),
  ],
);

export const VISIT_STATUSES = ["agendada", "realizada", "cancelada"] as const;

/** A visit the broker scheduled with a lead at a property (agenda /crm/visitas). */
export const visits = pgTable(
  "visits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    lead_id: uuid("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    property_id: uuid("property_id").references(() => properties.id, { onDelete: "set null" }),
    scheduled_at: timestamp("scheduled_at", { withTimezone: true }).notNull(),
    status: text("status", { enum: VISIT_STATUSES }).notNull().default("agendada"),
    notes: text("notes"),
    created_by: text("created_by"),
    created_by_name: text("created_by_name"),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    // Issue 25: the visitor's calendar copy. SEQUENCE of the last confirmation e-mailed (null:
    // none yet), and the time the day-before reminder went for (a new time earns a new one).
    confirmation_sequence: integer("confirmation_sequence"),
    reminded_for: timestamp("reminded_for", { withTimezone: true }),
  },
  (table) => [
    index("visits_scheduled_at_idx").on(table.scheduled_at, table.id),
    index("visits_lead_idx").on(table.lead_id, table.scheduled_at),
    check("visits_status_valid", inList("status", VISIT_STATUSES)),
    check("visits_notes_length", sql.raw("notes is null or char_length(notes) <= 1000")),
  ],
);

/**
 * The broker's settings, one row per key, each value a JSON document (features/settings):
 * "broker_profile", "notification_emails", "whatsapp_templates". A missing key means the
 * first-run default from the environment. A change notifies every process (trigger), which
 * drops its cached copy and the public page cache.
 */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updated_by: text("updated_by"),
});

/** A staff member's private calendar feed (iCalendar); the URL carries the token, we keep its sha256. */
export const calendar_feeds = pgTable("calendar_feeds", {
  user_id: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  token_hash: text("token_hash").notNull().unique(),
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

// --- Reports (issue 12) ---

/**
 * Every status a property has had, written by a database trigger on properties (migration 0006)
 * whoever changes it: the CRM, the CLI or a SQL console. The actor is the transaction's
 * app.actor_id (setActor), null for "sistema". Properties that existed before this table start
 * with one 'backfill' row at their updated_at: their last change is the best date we have.
 */
export const property_status_events = pgTable(
  "property_status_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    property_id: uuid("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    from_status: text("from_status"),
    to_status: text("to_status").notNull(),
    actor_id: text("actor_id"),
    /** 'created' (insert), 'status' (a change), 'backfill' (before the history existed). */
    kind: text("kind").notNull(),
  },
  (table) => [
    index("property_status_events_to_status_idx").on(table.to_status, table.at),
    index("property_status_events_property_idx").on(table.property_id, table.at),
    check("property_status_events_kind_valid", sql.raw("kind in ('created', 'status', 'backfill')")),
  ],
);

/**
 * Views of a property's public page per day in the broker's time zone: only a count, never an
 * address, a cookie or any identifier (app/features/reports/views.server.ts batches them).
 */
export const property_views = pgTable(
  "property_views",
  {
    property_id: uuid("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    /** The broker's calendar day (America/Fortaleza). */
    day: date("day", { mode: "string" }).notNull(),
    views: integer("views").notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.property_id, table.day] }),
    index("property_views_day_idx").on(table.day),
    check("property_views_positive", sql.raw("views >= 0")),
  ],
);

/**
 * property_views summed per listing and calendar month (issue 26): the reports over a year or a
 * decade read these instead of millions of daily rows. Kept by a trigger on property_views
 * (migration 0023), so every writer of the daily counts keeps it right; month is the 1st.
 */
export const property_views_monthly = pgTable(
  "property_views_monthly",
  {
    property_id: uuid("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    month: date("month", { mode: "string" }).notNull(),
    views: integer("views").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.property_id, table.month] }), index("property_views_monthly_month_idx").on(table.month)],
);

/**
 * One tap on a WhatsApp button of the public site (issue 25, decision 028), recorded by the
 * /whatsapp redirect before it sends the visitor on to wa.me: when, from which page (a short
 * allow-listed name) and for which listing, if the button was a listing's. Nothing about the
 * visitor — no address, cookie, agent or identifier. Bots, link previews and signed-in staff are
 * not recorded (the same rule as property_views). A deleted listing leaves its taps, unnamed, so
 * a period's total does not change after the fact.
 */
export const whatsapp_clicks = pgTable(
  "whatsapp_clicks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    page: text("page", { enum: WHATSAPP_PAGES }).notNull(),
    property_id: uuid("property_id").references(() => properties.id, { onDelete: "set null" }),
  },
  (table) => [
    index("whatsapp_clicks_at_idx").on(table.at),
    index("whatsapp_clicks_property_idx").on(table.property_id, table.at).where(sql`property_id is not null`),
    check("whatsapp_clicks_page_valid", inList("page", WHATSAPP_PAGES)),
  ],
);

/**
 * The broker's short text about a neighbourhood, shown on its public page (/imoveis/bairro/<slug>,
 * docs/decisions/021-neighbourhood-pages.md). Keyed by the slug, so spellings of one neighbourhood
 * share it; no row means no text. A change notifies every process (trigger), which drops the
 * public page cache.
 */
export const neighbourhood_texts = pgTable(
  "neighbourhood_texts",
  {
    slug: text("slug").primaryKey(),
    text: text("text").notNull(),
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** The staff member's e-mail (as settings.updated_by). */
    updated_by: text("updated_by"),
  },
  () => [
    check("neighbourhood_texts_slug_valid", sql.raw("slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 120")),
    check("neighbourhood_texts_text_length", sql.raw("char_length(text) between 1 and 1500")),
  ],
);

// --- Owners and captação (issue 23, decision 024) ---


/**
 * The people who own the listings (proprietários): staff-only data, never read by a public page,
 * feed or export (decision 024). `document` is a CPF (11 digits) or CNPJ (14), digits only,
 * checked with its check digits by the form.
 */
export const owners = pgTable(
  "owners",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    full_name: text("full_name").notNull(),
    phone: text("phone"),
    email: text("email"),
    document: text("document"),
    notes: text("notes"),
    /** The owner asked not to receive the monthly report (issue 23, item 5). */
    report_opt_out: boolean("report_opt_out").notNull().default(false),
    /** Set when an admin anonymised the record (LGPD): the row stays for the listing's history. */
    anonymized_at: timestamp("anonymized_at", { withTimezone: true }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("owners_name_idx").on(table.full_name),
    index("owners_document_idx").on(table.document),
    check("owners_full_name_length", sql.raw("char_length(full_name) between 2 and 120")),
    check("owners_phone_length", sql.raw("phone is null or char_length(phone) <= 30")),
    check("owners_email_length", sql.raw("email is null or char_length(email) <= 255")),
    check("owners_document_digits", sql.raw("document is null or document ~ '^([0-9]{11}|[0-9]{14})$'")),
    check("owners_notes_length", sql.raw("notes is null or char_length(notes) <= 2000")),
  ],
);

/** Which owners own which listings (a listing may have several owners, an owner several listings). */
export const property_owners = pgTable(
  "property_owners",
  {
    property_id: uuid("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    owner_id: uuid("owner_id")
      .notNull()
      .references(() => owners.id, { onDelete: "cascade" }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.property_id, table.owner_id] }), index("property_owners_owner_idx").on(table.owner_id)],
);

/**
 * The captação of a listing: the owners' authorisation to sell or rent it. One per listing, shared
 * by its owners. The PDF of the authorisation lives in the private media storage under
 * `document_key` and is served only to staff (/crm/captacao/:propertyId/documento).
 */
export const property_captacao = pgTable(
  "property_captacao",
  {
    property_id: uuid("property_id")
      .primaryKey()
      .references(() => properties.id, { onDelete: "cascade" }),
    authorization_type: text("authorization_type", { enum: CAPTACAO_AUTHORIZATIONS }).notNull(),
    starts_on: date("starts_on", { mode: "string" }),
    ends_on: date("ends_on", { mode: "string" }),
    commission: numeric("commission", { precision: 5, scale: 2, mode: "number" }),
    keys_location: text("keys_location"),
    /** The broker's note in the owner's report about this listing. */
    report_note: text("report_note"),
    document_key: text("document_key"),
    document_size: integer("document_size"),
    document_uploaded_at: timestamp("document_uploaded_at", { withTimezone: true }),
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("property_captacao_ends_on_idx").on(table.ends_on),
    check("property_captacao_authorization_valid", inList("authorization_type", CAPTACAO_AUTHORIZATIONS)),
    check("property_captacao_dates", sql.raw("starts_on is null or ends_on is null or ends_on >= starts_on")),
    check("property_captacao_commission_range", sql.raw("commission is null or (commission >= 0 and commission <= 100)")),
    check("property_captacao_keys_length", sql.raw("keys_location is null or char_length(keys_location) <= 200")),
    check("property_captacao_report_note_length", sql.raw("report_note is null or char_length(report_note) <= 1000")),
  ],
);

/**
 * The monthly owner reports already queued: one row per owner, listing and month ('YYYY-MM'),
 * written in the transaction that puts the mail in the outbox, so a second run (or another
 * process) sends nothing twice.
 */
export const owner_report_runs = pgTable(
  "owner_report_runs",
  {
    owner_id: uuid("owner_id")
      .notNull()
      .references(() => owners.id, { onDelete: "cascade" }),
    property_id: uuid("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    period: text("period").notNull(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.owner_id, table.property_id, table.period] })],
);

// --- Buyers' profiles and matching (issue 23, docs/decisions/023) ---

/**
 * What a lead is looking for ('perfil de busca'); a lead can hold several. Empty lists and nulls
 * mean "any". Money in reais like properties.price. `neighborhood_keys` holds the neighbourhoods
 * as the public filter compares them (immutable_unaccent(lower(…))), written with the row, so the
 * match compares a listing's indexed expression against it. Deleted with the lead.
 */
export const lead_profiles = pgTable(
  "lead_profiles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    lead_id: uuid("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: PROPERTY_PURPOSES }).notNull(),
    types: text("types", { enum: PROPERTY_TYPES }).array().notNull().default(sql`'{}'::text[]`),
    neighborhoods: text("neighborhoods").array().notNull().default(sql`'{}'::text[]`),
    neighborhood_keys: text("neighborhood_keys").array().notNull().default(sql`'{}'::text[]`),
    price_min: numeric("price_min", { precision: 14, scale: 2, mode: "number" }),
    price_max: numeric("price_max", { precision: 14, scale: 2, mode: "number" }),
    min_bedrooms: integer("min_bedrooms"),
    min_suites: integer("min_suites"),
    min_parking: integer("min_parking"),
    min_area: numeric("min_area", { precision: 12, scale: 2, mode: "number" }),
    features: text("features", { enum: PROPERTY_FEATURES }).array().notNull().default(sql`'{}'::text[]`),
    accepts_financing: boolean("accepts_financing").notNull().default(false),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    // For the reverse match (a listing's profiles): "any" written as '*', so that one indexable
    // overlap (`match_types && array[type, '*']`) says "this type, or any type" (match.server.ts).
    match_types: text("match_types")
      .array()
      .notNull()
      .generatedAlwaysAs(sql`case when cardinality(types) = 0 then array['*']::text[] else types end`),
    match_neighborhoods: text("match_neighborhoods")
      .array()
      .notNull()
      .generatedAlwaysAs(sql`case when cardinality(neighborhood_keys) = 0 then array['*']::text[] else neighborhood_keys end`),
  },
  (table) => [
    index("lead_profiles_lead_idx").on(table.lead_id, table.created_at),
    // A listing's leads: the profiles of its purpose whose ceiling it is under (or that have none).
    index("lead_profiles_match_idx").on(table.purpose, table.price_max),
    index("lead_profiles_types_idx").using("gin", table.match_types),
    index("lead_profiles_neighborhoods_idx").using("gin", table.match_neighborhoods),
    check("lead_profiles_purpose_valid", inList("purpose", PROPERTY_PURPOSES)),
    check("lead_profiles_types_valid", arrayWithin("types", PROPERTY_TYPES)),
    check("lead_profiles_features_valid", arrayWithin("features", PROPERTY_FEATURES)),
    check("lead_profiles_types_count", sql.raw("cardinality(types) <= 10")),
    check("lead_profiles_neighborhoods_count", sql.raw("cardinality(neighborhoods) <= 10 and cardinality(neighborhood_keys) <= 10")),
    check("lead_profiles_features_count", sql.raw("cardinality(features) <= 50")),
    check("lead_profiles_price_range", sql.raw("(price_min is null or price_min >= 0) and (price_max is null or price_max >= 0) and (price_min is null or price_max is null or price_max >= price_min)")),
    check("lead_profiles_minimums", sql.raw("coalesce(min_bedrooms, 0) between 0 and 50 and coalesce(min_suites, 0) between 0 and 50 and coalesce(min_parking, 0) between 0 and 50 and coalesce(min_area, 0) between 0 and 10000000")),
  ],
);

export const MATCH_CHANNELS = ["whatsapp", "email"] as const;

/**
 * A listing sent to a lead ('já enviados'), by WhatsApp (recorded on the click that opens wa.me)
 * or by e-mail (its outbox row). The lead's timeline reads it. Deleted with the lead or listing.
 */
export const lead_matches_sent = pgTable(
  "lead_matches_sent",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    lead_id: uuid("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    property_id: uuid("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: MATCH_CHANNELS }).notNull(),
    sent_at: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
    actor_id: text("actor_id"),
    actor_name: text("actor_name"),
    outbox_id: uuid("outbox_id").references(() => outbox.id, { onDelete: "set null" }),
  },
  (table) => [
    index("lead_matches_sent_lead_idx").on(table.lead_id, table.sent_at.desc()),
    index("lead_matches_sent_pair_idx").on(table.property_id, table.lead_id),
    check("lead_matches_sent_channel_valid", inList("channel", MATCH_CHANNELS)),
  ],
);

/**
 * A listing's price going down, written by a trigger on properties (migration 0016) whoever
 * changes it: the dashboard's 'Novos matches' reads the recent ones.
 */
export const property_price_drops = pgTable(
  "property_price_drops",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    property_id: uuid("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    old_price: numeric("old_price", { precision: 14, scale: 2, mode: "number" }).notNull(),
    new_price: numeric("new_price", { precision: 14, scale: 2, mode: "number" }).notNull(),
  },
  (table) => [index("property_price_drops_at_idx").on(table.at, table.property_id)],
);

// --- 'Avise-me' (issue 23, item 3; decision 025) ---

/**
 * A visitor's alert on /imoveis: an e-mail (and optionally a WhatsApp number) and the list's
 * filters as their normalised query string (filters.ts). Pending until the link of the
 * confirmation e-mail is followed (double opt-in); pending alerts go after ALERT_PENDING_DAYS,
 * cancelled ones are deleted.
 */
export const listing_alerts = pgTable(
  "listing_alerts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    phone: text("phone"),
    query: text("query").notNull(),
    status: text("status", { enum: ["pending", "confirmed"] }).notNull().default("pending"),
    /** The lead made at confirmation (with a profile from the filters), so the broker sees the demand. */
    lead_id: uuid("lead_id").references(() => leads.id, { onDelete: "set null" }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    confirmed_at: timestamp("confirmed_at", { withTimezone: true }),
    last_sent_at: timestamp("last_sent_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("listing_alerts_email_query_idx").on(sql`lower(${table.email})`, table.query),
    index("listing_alerts_status_idx").on(table.status, table.created_at),
    check("listing_alerts_status_valid", sql.raw("status in ('pending', 'confirmed')")),
    check("listing_alerts_email_length", sql.raw("char_length(email) between 3 and 255")),
    check("listing_alerts_phone_length", sql.raw("phone is null or char_length(phone) between 10 and 20")),
    check("listing_alerts_query_length", sql.raw("char_length(query) <= 1000")),
  ],
);

/**
 * The links of the alerts' e-mails: one random token per message, stored only as its sha256
 * (the outbox holds it sealed until sent: decision 011). A token opens its e-mail address's
 * alerts page (/alertas/<token>); it confirms or cancels its own alert. An address's links go
 * when its last alert does.
 */
export const listing_alert_tokens = pgTable(
  "listing_alert_tokens",
  {
    token_hash: text("token_hash").primaryKey(),
    email: text("email").notNull(),
    /** Null once its alert is cancelled: the link still opens the address's other alerts. */
    alert_id: uuid("alert_id").references(() => listing_alerts.id, { onDelete: "set null" }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("listing_alert_tokens_email_idx").on(sql`lower(${table.email})`), index("listing_alert_tokens_created_idx").on(table.created_at)],
);

/** One row per alert and day a digest was queued: the claim that keeps it to one a day, whoever runs the job. */
export const listing_alert_digests = pgTable(
  "listing_alert_digests",
  {
    alert_id: uuid("alert_id")
      .notNull()
      .references(() => listing_alerts.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    listings: integer("listings").notNull(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.alert_id, table.day] })],
);

// --- Push alerts and reminders (issue 25; docs/decisions/030-push-alerts-and-reminders.md) ---

/**
 * One browser's Web Push subscription for a staff member: the push service's endpoint and the
 * browser's keys (public by design: they let us encrypt to it, nothing more). Deleted with the
 * user, from 'Minha conta', on sign-out of that device, and when the push service answers 404/410.
 */
export const push_subscriptions = pgTable(
  "push_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    user_id: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull().unique(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    /** "Chrome no Android": a summary of the user agent, never the whole string. */
    device: text("device").notNull(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    last_used_at: timestamp("last_used_at", { withTimezone: true }),
  },
  (table) => [
    index("push_subscriptions_user_idx").on(table.user_id),
    check("push_subscriptions_endpoint_length", sql.raw("char_length(endpoint) between 10 and 1000")),
    check("push_subscriptions_device_length", sql.raw("char_length(device) <= 80")),
  ],
);

/** Which alerts a staff member wants (no row: every push kind, no e-mail reminders). */
export const push_preferences = pgTable(
  "push_preferences",
  {
    user_id: text("user_id")
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    kinds: text("kinds").array().notNull(),
    /** 'Próximo contato' reminders also by e-mail. */
    reminder_email: boolean("reminder_email").notNull().default(false),
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  () => [check("push_preferences_kinds_valid", sql.raw("kinds <@ array['novo_lead', 'proximo_contato', 'visita_1h', 'match_novo', 'proposta_expirando']::text[]"))],
);

/**
 * Events that produced alerts, once each ('lead:<id>', 'next-contact:<lead>:<epoch>', …): the
 * scheduled jobs insert the key first (on conflict do nothing) and fan out only when they did,
 * so a second round or process never alerts twice. Pruned after 30 days.
 */
export const push_events = pgTable("push_events", {
  key: text("key").primaryKey(),
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One push to one subscription, written in the transaction of its cause and sent by the push
 * worker like the outbox (a short lease, SKIP LOCKED, the outcome recorded before the next).
 * Unique per (event, subscription): one event never pushes twice to a device. The text names at
 * most a lead's first name; it goes with the lead, and sent rows are pruned after a week.
 */
export const push_messages = pgTable(
  "push_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    event_key: text("event_key").notNull(),
    subscription_id: uuid("subscription_id")
      .notNull()
      .references(() => push_subscriptions.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    /** A path on this site ("/crm/leads/…"): the notification opens it. */
    url: text("url").notNull(),
    lead_id: uuid("lead_id").references(() => leads.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["pending", "sent", "failed"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    next_attempt_at: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    locked_until: timestamp("locked_until", { withTimezone: true }),
    /** The push service's status code or error code, never the message. */
    last_error: text("last_error"),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sent_at: timestamp("sent_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("push_messages_event_subscription_idx").on(table.event_key, table.subscription_id),
    index("push_messages_due_idx").on(table.status, table.next_attempt_at),
    index("push_messages_lead_idx").on(table.lead_id).where(sql`lead_id is not null`),
    check("push_messages_status_valid", sql.raw("status in ('pending', 'sent', 'failed')")),
  ],
);

// --- Proposals and deals (issue 24, decision 026) ---

/*
 * Money here is in whole centavos (bigint, mode "number": exact up to R$ 90 trilhões, and both
 * drivers hand back a JS number), never reais in a float. Dates of the business (validity,
 * closing, payments) are calendar days in the broker's time zone ('YYYY-MM-DD').
 */

/**
 * A proposal: a lead's offer for a listing. `kind` follows the listing's purpose when made: a sale
 * ('venda': amount = price offered, with its payment terms) or a rental ('aluguel': amount = the
 * monthly rent, with the guarantee and the start date). `amount_cents` is the latest offer of its
 * history (proposal_offers). Null amounts only after an anonymisation (LGPD).
 */
export const proposals = pgTable(
  "proposals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    lead_id: uuid("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    property_id: uuid("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: PROPERTY_PURPOSES }).notNull(),
    status: text("status", { enum: PROPOSAL_STATUSES }).notNull().default("em_negociacao"),
    amount_cents: bigint("amount_cents", { mode: "number" }),
    // Sales: how the price is paid (each part optional; together they need not add up to the amount).
    cash_cents: bigint("cash_cents", { mode: "number" }),
    financing_cents: bigint("financing_cents", { mode: "number" }),
    fgts_cents: bigint("fgts_cents", { mode: "number" }),
    exchange_cents: bigint("exchange_cents", { mode: "number" }),
    // Rentals: the guarantee offered and when the lease would start.
    guarantee: text("guarantee", { enum: RENTAL_GUARANTEES }),
    starts_on: date("starts_on", { mode: "string" }),
    conditions: text("conditions"),
    valid_until: date("valid_until", { mode: "string" }).notNull(),
    created_by: text("created_by"),
    created_by_name: text("created_by_name"),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    decided_at: timestamp("decided_at", { withTimezone: true }),
    anonymized_at: timestamp("anonymized_at", { withTimezone: true }),
  },
  (table) => [
    index("proposals_lead_idx").on(table.lead_id, table.created_at),
    index("proposals_property_idx").on(table.property_id, table.created_at),
    // The expiry round and the dashboard read the open ones by validity date.
    index("proposals_open_idx").on(table.valid_until).where(sql`status = 'em_negociacao'`),
    check("proposals_kind_valid", inList("kind", PROPERTY_PURPOSES)),
    check("proposals_status_valid", inList("status", PROPOSAL_STATUSES)),
    check("proposals_guarantee_valid", nullOrInList("guarantee", RENTAL_GUARANTEES)),
    check("proposals_amount_present", sql.raw("amount_cents is not null or anonymized_at is not null")),
    check(
      "proposals_amounts_range",
      sql.raw(
        "(amount_cents is null or amount_cents between 1 and 100000000000) and (cash_cents is null or cash_cents between 0 and 100000000000) and (financing_cents is null or financing_cents between 0 and 100000000000) and (fgts_cents is null or fgts_cents between 0 and 100000000000) and (exchange_cents is null or exchange_cents between 0 and 100000000000)",
      ),
    ),
    check("proposals_conditions_length", sql.raw("conditions is null or char_length(conditions) <= 2000")),
  ],
);

/** The history of a proposal: each offer and counter-offer, who made it, how much, when. */
export const proposal_offers = pgTable(
  "proposal_offers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    proposal_id: uuid("proposal_id")
      .notNull()
      .references(() => proposals.id, { onDelete: "cascade" }),
    party: text("party", { enum: OFFER_PARTIES }).notNull(),
    amount_cents: bigint("amount_cents", { mode: "number" }),
    note: text("note"),
    actor_id: text("actor_id"),
    actor_name: text("actor_name"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("proposal_offers_proposal_idx").on(table.proposal_id, table.at),
    check("proposal_offers_party_valid", inList("party", OFFER_PARTIES)),
    check("proposal_offers_amount_range", sql.raw("amount_cents is null or amount_cents between 1 and 100000000000")),
    check("proposal_offers_note_length", sql.raw("note is null or char_length(note) <= 500")),
  ],
);

/**
 * A deal: an accepted proposal that closed. Closing sets the listing to vendido/alugado and the
 * lead to convertido in the same transaction; undoing it (undone_at, kept for the record) puts
 * them back. At most one standing deal per proposal and per listing.
 */
export const deals = pgTable(
  "deals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    proposal_id: uuid("proposal_id")
      .notNull()
      .references(() => proposals.id, { onDelete: "cascade" }),
    lead_id: uuid("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    property_id: uuid("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: PROPERTY_PURPOSES }).notNull(),
    final_value_cents: bigint("final_value_cents", { mode: "number" }).notNull(),
    closed_on: date("closed_on", { mode: "string" }).notNull(),
    commission_percent: numeric("commission_percent", { precision: 5, scale: 2, mode: "number" }).notNull(),
    commission_cents: bigint("commission_cents", { mode: "number" }).notNull(),
    commission_status: text("commission_status", { enum: COMMISSION_STATUSES }).notNull().default("a_receber"),
    commission_due_on: date("commission_due_on", { mode: "string" }),
    commission_paid_on: date("commission_paid_on", { mode: "string" }),
    created_by: text("created_by"),
    created_by_name: text("created_by_name"),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    undone_at: timestamp("undone_at", { withTimezone: true }),
    undone_by_name: text("undone_by_name"),
    undo_reason: text("undo_reason"),
  },
  (table) => [
    uniqueIndex("deals_standing_proposal_idx").on(table.proposal_id).where(sql`undone_at is null`),
    uniqueIndex("deals_standing_property_idx").on(table.property_id).where(sql`undone_at is null`),
    index("deals_lead_idx").on(table.lead_id),
    index("deals_closed_on_idx").on(table.closed_on),
    index("deals_commission_due_idx").on(table.commission_due_on).where(sql`undone_at is null and commission_status = 'a_receber'`),
    check("deals_kind_valid", inList("kind", PROPERTY_PURPOSES)),
    check("deals_commission_status_valid", inList("commission_status", COMMISSION_STATUSES)),
    check("deals_final_value_range", sql.raw("final_value_cents between 1 and 100000000000")),
    check("deals_commission_percent_range", sql.raw("commission_percent between 0 and 100")),
    check("deals_commission_range", sql.raw("commission_cents between 0 and 100000000000")),
    check("deals_paid_when_received", sql.raw("(commission_status = 'recebida') = (commission_paid_on is not null)")),
    check("deals_undo_reason_length", sql.raw("undo_reason is null or char_length(undo_reason) <= 500")),
  ],
);

/** The partners' shares of a deal's commission (% of the commission); the broker keeps the rest. */
export const deal_splits = pgTable(
  "deal_splits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    deal_id: uuid("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    creci: text("creci"),
    percent: numeric("percent", { precision: 5, scale: 2, mode: "number" }).notNull(),
  },
  (table) => [
    index("deal_splits_deal_idx").on(table.deal_id, table.position),
    check("deal_splits_name_length", sql.raw("char_length(name) between 2 and 120")),
    check("deal_splits_creci_length", sql.raw("creci is null or char_length(creci) between 1 and 30")),
    check("deal_splits_percent_range", sql.raw("percent > 0 and percent <= 100")),
  ],
);
