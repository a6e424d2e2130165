// The mint categories and visibilities, with names for people, and a guess of a
// file's category from its MIME type and extension. Kept client-safe: the server's list lives in
// server/domain/protections/protections.ts, which a browser bundle cannot import.

export const CATEGORIES = ["code", "research", "design", "media", "dataset", "ai-output", "writing", "digital-art", "other"] as const;
export type Category = (typeof CATEGORIES)[number];
export const VISIBILITIES = ["public", "private"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const CATEGORY_LABELS: Record<Category, string> = {
  code: "Code",
  research: "Research",
  design: "Design",
  media: "Media (video, audio)",
  dataset: "Dataset",
  "ai-output": "AI output",
  writing: "Writing",
  "digital-art": "Digital art",
  other: "Other",
};

/** Short names, for badges and lists. */
export const CATEGORY_SHORT: Record<Category, string> = { ...CATEGORY_LABELS, media: "Media" };

export const isCategory = (v: unknown): v is Category => typeof v === "string" && (CATEGORIES as readonly string[]).includes(v);
export const isVisibility = (v: unknown): v is Visibility => typeof v === "string" && (VISIBILITIES as readonly string[]).includes(v);

const BY_EXTENSION: Array<[Category, RegExp]> = [
  [
    "code",
    /\.(js|mjs|cjs|jsx|ts|tsx|py|rb|go|rs|java|kt|swift|c|h|cc|cpp|hpp|cs|php|sh|sql|scala|hs|ex|exs|lua|r|jl|dart|vue|svelte|ipynb|wasm)$/i,
  ],
  ["dataset", /\.(csv|tsv|parquet|jsonl|ndjson|arrow|feather|sqlite|db|h5|hdf5|npy|npz|xlsx|xls|ods)$/i],
  ["writing", /\.(md|markdown|txt|rtf|doc|docx|odt|epub|tex)$/i],
  ["design", /\.(fig|sketch|xd|psd|ai|indd|afdesign|svg)$/i],
  ["media", /\.(mp4|mov|mkv|webm|avi|m4v|mp3|wav|flac|aac|ogg|m4a|opus)$/i],
  ["digital-art", /\.(png|jpe?g|gif|webp|avif|heic|tiff?|bmp|kra|procreate|blend|exr)$/i],
];

/** The category a file most likely belongs to, else "other". */
export function guessCategory(file: { name: string; type: string }): Category {
  for (const [category, re] of BY_EXTENSION) if (re.test(file.name)) return category;
  const type = file.type.toLowerCase();
  if (type.startsWith("video/") || type.startsWith("audio/")) return "media";
  if (type === "image/svg+xml") return "design";
  if (type.startsWith("image/")) return "digital-art";
  if (type === "text/csv" || type === "text/tab-separated-values") return "dataset";
  if (type === "text/markdown" || type === "text/plain") return "writing";
  if (/javascript|typescript|x-python|x-sh|x-c(\+\+)?src/.test(type)) return "code";
  return "other";
}

/** "holiday.final.mov" → "holiday.final"; a name without an extension stays whole. */
export function titleFromFileName(name: string): string {
  const dot = name.lastIndexOf(".");
  const base = dot > 0 ? name.slice(0, dot) : name;
  return base.slice(0, 200);
}

/** 1536 → "1.5 KB" (decimal units, as file managers show them). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n;
  let i = -1;
  do {
    v /= 1000;
    i++;
  } while (v >= 1000 && i < units.length - 1);
  return `${v >= 100 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

/** The first 10 and last 6 hex digits: enough to recognise a hash at a glance. */
export const shortHash = (hash: string) => (hash.length > 20 ? `${hash.slice(0, 10)}…${hash.slice(-6)}` : hash);
