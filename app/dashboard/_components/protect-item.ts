// One file on the Protect page: its phase, hashing progress, mint details and result, and the
// small pure helpers around it (a fresh item, the mint body, hashing speed).
import { guessCategory, titleFromFileName, type Category, type Visibility } from "@/app/_components/categories";
import type { MintView } from "./protect-types";
import type { PdqHash } from "@/lib/fingerprint/pdq";

export type Phase = "queued" | "hashing" | "cancelled" | "hash-failed" | "hashed" | "minting" | "mint-failed" | "protected";

export interface FormValues {
  title: string;
  description: string;
  category: Category;
  visibility: Visibility;
}

export interface Item {
  key: string;
  name: string;
  size: number;
  type: string;
  /** One per file, sent with every attempt: a double click or a retry cannot mint twice. */
  idempotencyKey: string;
  phase: Phase;
  loaded: number;
  startedAt: number | null;
  finishedAt: number | null;
  hash: string | null;
  /** The picture's PDQ hash where the file is an image: sent with the mint for similar-image lookup. */
  pdq: PdqHash | null;
  hashError: string | null;
  form: FormValues;
  result: MintView | null;
  mintError: { message: string; code: string | null; fields: Record<string, string> } | null;
}

/** A v4 UUID; crypto.randomUUID exists only on secure origins, getRandomValues everywhere. */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A dropped or chosen file, waiting for its turn to be hashed. */
export function newItem(key: string, file: File): Item {
  return {
    key,
    name: file.name,
    size: file.size,
    type: file.type,
    idempotencyKey: randomUuid(),
    phase: "queued",
    loaded: 0,
    startedAt: null,
    finishedAt: null,
    hash: null,
    pdq: null,
    hashError: null,
    form: { title: titleFromFileName(file.name), description: "", category: guessCategory(file), visibility: "private" },
    result: null,
    mintError: null,
  };
}

// What the server accepts (server/api/routers/consumer.types.ts); anything else is left out
// rather than failing the mint over a detail the browser reported.
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
const CONTROL = /[\u0000-\u001f\u007f]/;

export function mintBody(item: Item, contentHash: string) {
  const title = item.form.title.trim();
  const description = item.form.description.trim();
  return {
    content_hash: contentHash,
    title: title || null,
    description: description || null,
    category: item.form.category,
    visibility: item.form.visibility,
    file_name: item.name && item.name.length <= 255 && !CONTROL.test(item.name) ? item.name : null,
    file_size: item.size,
    content_type: MIME.test(item.type) ? item.type : null,
    ...(item.pdq ? { fingerprints: [{ alg: "pdq" as const, hash: item.pdq.hash, quality: item.pdq.quality }] } : {}),
  };
}

export const speedOf = (bytes: number, ms: number) => (ms > 0 ? bytes / 1e6 / (ms / 1000) : 0);
export const formatSpeed = (mbps: number) => `${mbps >= 100 ? Math.round(mbps) : mbps.toFixed(1)} MB/s`;
