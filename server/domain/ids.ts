import { uuidv7 } from "uuidv7";

/** Time-ordered UUIDv7 identifiers (ARCHITECTURE.md, "Formats"). */
export const newId = (): string => uuidv7();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);

/** ISO 8601 UTC with milliseconds (ARCHITECTURE.md, "Formats"). */
export const iso = (date: Date): string => date.toISOString();
