const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Row ids are UUIDs; anything else is answered as "not found" before it reaches the database. */
export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);
