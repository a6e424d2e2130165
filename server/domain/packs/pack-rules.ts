/**
 * The rule language of verification packs: a pack's rules are data (a JSON object, validated
 * here with zod), evaluated against the verified facts of one attestation. Pure: no database,
 * no clock of its own (the caller passes `now`), so it is unit-tested directly.
 *
 * Every rule present yields exactly one check, in the fixed order of RULE_ORDER, each with
 * pass or fail and a reason. Absent rules yield no check. Rules version 1.
 */
import { z } from "zod";
import { ISSUER_STATUSES, KEY_ALGORITHMS, TRUST_LEVELS, type TrustLevel } from "../attestations";
import { PROTECTION_PAYLOAD_TYPE } from "../payload-types";

export const RULES_VERSION = 1;

export const PROTECTION_VISIBILITIES = ["public", "private"] as const;

/** A payload field path: dot-separated member names, e.g. "content_hash" or "source.url". */
const FIELD_PATH = /^[^.\s]{1,64}(?:\.[^.\s]{1,64}){0,7}$/;
const ZFieldPath = z
  .string()
  .regex(FIELD_PATH, 'must be a payload field path such as "content_hash" or "source.url" (dot-separated, no spaces)');

const unique = <T extends z.ZodType>(item: T, max: number) =>
  z
    .array(item)
    .min(1, "must list at least one value")
    .max(max, `must list at most ${max} values`)
    .refine((a) => new Set(a.map((v) => JSON.stringify(v))).size === a.length, "must not repeat a value");

const ZLabel = z.string().min(1).max(64);

/** One pack's rules. Unknown rules are rejected, so a typo cannot silently weaken a policy. */
export const ZPackRules = z.strictObject({
  /** Payload fields that must be present, not null and not an empty string. */
  required_fields: unique(ZFieldPath, 32).optional(),
  /** Payload fields that must equal a given JSON scalar exactly. */
  field_equals: z
    .array(z.strictObject({ field: ZFieldPath, value: z.union([z.string().max(1024), z.number(), z.boolean(), z.null()]) }))
    .min(1, "must list at least one value")
    .max(32, "must list at most 32 values")
    .refine((a) => new Set(a.map((e) => e.field)).size === a.length, "must not name a field twice")
    .optional(),
  /** payload.category must be one of these. */
  allowed_categories: unique(ZLabel, 32).optional(),
  /** payload.type must be one of these (a protection's is "hallmark.protection/v1"). */
  allowed_payload_types: unique(z.string().min(1).max(256), 16).optional(),
  /** The issuer's trust level, from this log's records: BASIC < VERIFIED < HIGH. */
  min_trust_level: z.enum(TRUST_LEVELS).optional(),
  /** The issuer's status, from this log's records. */
  allowed_issuer_statuses: unique(z.enum(ISSUER_STATUSES), ISSUER_STATUSES.length).optional(),
  /** The signing key's algorithm, from this log's records. */
  allowed_key_algorithms: unique(z.enum(KEY_ALGORITHMS), KEY_ALGORITHMS.length).optional(),
  /** The attestation must be at most this many days old (from its signed created_at). */
  max_age_days: z.number().int("must be a whole number of days").min(1).max(36_500).optional(),
  /** A consumer protection must have this visibility; not applicable to other attestations. */
  required_visibility: z.enum(PROTECTION_VISIBILITIES).optional(),
  /** The request must carry content_hash, and it must equal payload.content_hash. */
  require_content_hash_match: z.boolean().optional(),
});

export type PackRules = z.infer<typeof ZPackRules>;

export const RULE_ORDER = [
  "required_fields",
  "field_equals",
  "allowed_payload_types",
  "allowed_categories",
  "min_trust_level",
  "allowed_issuer_statuses",
  "allowed_key_algorithms",
  "max_age_days",
  "required_visibility",
] as const satisfies readonly (keyof PackRules)[];

export interface CheckResult {
  name: string;
  result: "pass" | "fail";
  reason: string;
}

/**
 * What the rules are evaluated against. Everything here is either signed (payload, created_at,
 * and the issuer_id/kid that located the issuer and key) or read from this log's own records,
 * never from the unsigned parts of a supplied bundle.
 */
export interface RuleFacts {
  payload: Record<string, unknown>;
  /** The attestation's signed created_at. */
  createdAt: Date;
  /** This log's record of the issuer that signed (null: unknown to this log). */
  issuer: { status: string; trustLevel: string } | null;
  /** This log's record of the signing key (null: unknown to this log). */
  keyAlgorithm: string | null;
  /**
   * Set when the attestation is a consumer protection of this log that the caller may see (a
   * public one, or the caller's own); null for any other, a private one of someone else included.
   */
  protection: { id: string; visibility: string } | null;
  /** The verified entry is a sealed leaf without its opening: what it seals is its owner's. */
  sealed: boolean;
  /** The caller's content hash, normalised to lowercase hex (null: not sent). */
  contentHash: string | null;
  now: Date;
}

const DAY_MS = 86_400_000;
const HEX64 = /^(?:sha256:)?([0-9a-f]{64})$/i;

/** "sha256:<hex>" or "<hex>" → lowercase hex; anything else → null. */
export function normaliseContentHash(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const m = HEX64.exec(value);
  return m ? m[1]!.toLowerCase() : null;
}

const has = (o: unknown, k: string): boolean => typeof o === "object" && o !== null && !Array.isArray(o) && Object.hasOwn(o, k);

/** The value at a dot path, or undefined when any step is missing (own members only). */
export function fieldAt(payload: Record<string, unknown>, path: string): unknown {
  let at: unknown = payload;
  for (const part of path.split(".")) {
    if (!has(at, part)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

const show = (v: unknown): string => {
  if (v === undefined) return "absent";
  const s = JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};
const list = (a: readonly unknown[]) => a.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ");
const pass = (name: string, reason: string): CheckResult => ({ name, result: "pass", reason });
const fail = (name: string, reason: string): CheckResult => ({ name, result: "fail", reason });

type Evaluator<K extends keyof PackRules> = (rule: NonNullable<PackRules[K]>, f: RuleFacts) => CheckResult;

/** Each rule but require_content_hash_match, which the content_hash_match check (last) covers. */
const EVALUATORS: { [K in (typeof RULE_ORDER)[number]]: Evaluator<K> } = {
  required_fields(fields, f) {
    const missing = fields.filter((p) => {
      const v = fieldAt(f.payload, p);
      return v === undefined || v === null || v === "";
    });
    return missing.length
      ? fail("required_fields", `payload lacks ${missing.length === 1 ? "field" : "fields"} ${list(missing)}`)
      : pass("required_fields", `payload has ${list(fields)}`);
  },
  field_equals(entries, f) {
    const wrong = entries.filter((e) => fieldAt(f.payload, e.field) !== e.value);
    if (wrong.length === 0) return pass("field_equals", entries.map((e) => `${e.field} is ${show(e.value)}`).join("; "));
    return fail(
      "field_equals",
      wrong.map((e) => `${e.field} is ${show(fieldAt(f.payload, e.field))}, expected ${show(e.value)}`).join("; "),
    );
  },
  allowed_payload_types(types, f) {
    const t = f.payload.type;
    if (typeof t !== "string") return fail("allowed_payload_types", `payload has no type; allowed: ${list(types)}`);
    return types.includes(t)
      ? pass("allowed_payload_types", `payload type ${t} is allowed`)
      : fail("allowed_payload_types", `payload type ${t} is not one of ${list(types)}`);
  },
  allowed_categories(categories, f) {
    const c = f.payload.category;
    if (typeof c !== "string") return fail("allowed_categories", `payload has no category; allowed: ${list(categories)}`);
    return categories.includes(c)
      ? pass("allowed_categories", `category ${c} is allowed`)
      : fail("allowed_categories", `category ${c} is not one of ${list(categories)}`);
  },
  min_trust_level(min, f) {
    if (!f.issuer) return fail("min_trust_level", "the issuer is not known to this log, so its trust level cannot be established");
    const have = TRUST_LEVELS.indexOf(f.issuer.trustLevel as TrustLevel);
    return have >= TRUST_LEVELS.indexOf(min)
      ? pass("min_trust_level", `issuer trust level ${f.issuer.trustLevel} meets ${min}`)
      : fail("min_trust_level", `issuer trust level ${f.issuer.trustLevel} is below ${min}`);
  },
  allowed_issuer_statuses(statuses, f) {
    if (!f.issuer) return fail("allowed_issuer_statuses", "the issuer is not known to this log, so its status cannot be established");
    return (statuses as readonly string[]).includes(f.issuer.status)
      ? pass("allowed_issuer_statuses", `issuer status ${f.issuer.status} is allowed`)
      : fail("allowed_issuer_statuses", `issuer status ${f.issuer.status} is not one of ${list(statuses)}`);
  },
  allowed_key_algorithms(algorithms, f) {
    if (!f.keyAlgorithm) return fail("allowed_key_algorithms", "the signing key is not known to this log");
    return (algorithms as readonly string[]).includes(f.keyAlgorithm)
      ? pass("allowed_key_algorithms", `key algorithm ${f.keyAlgorithm} is allowed`)
      : fail("allowed_key_algorithms", `key algorithm ${f.keyAlgorithm} is not one of ${list(algorithms)}`);
  },
  max_age_days(days, f) {
    const ageMs = f.now.getTime() - f.createdAt.getTime();
    const age = Math.max(0, ageMs) / DAY_MS;
    const shown = age < 1 ? "less than a day" : `${Math.floor(age)} ${Math.floor(age) === 1 ? "day" : "days"}`;
    const limit = `${days} ${days === 1 ? "day" : "days"}`;
    return ageMs <= days * DAY_MS
      ? pass("max_age_days", `attested ${shown} ago, within ${limit}`)
      : fail("max_age_days", `attested ${shown} ago, more than ${limit}`);
  },
  required_visibility(visibility, f) {
    if (f.sealed)
      return fail("required_visibility", "not evaluated: a sealed entry's content, a protection's or not, is its owner's to know");
    if (!f.protection) {
      // A protection this account may not see answers as one that does not exist: the same words.
      if (f.payload.type === PROTECTION_PAYLOAD_TYPE)
        return fail("required_visibility", "no protection this account may see is this attestation: a private one is its owner's alone");
      return pass("required_visibility", "not applicable: the attestation is not a consumer protection");
    }
    return f.protection.visibility === visibility
      ? pass("required_visibility", `the protection is ${visibility}`)
      : fail("required_visibility", `the protection is ${f.protection.visibility}, not ${visibility}`);
  },
};

/**
 * The content_hash_match check: present when the pack requires it or the caller sent a hash.
 * The attested hash is payload.content_hash ("sha256:<hex>" or 64 hex digits).
 */
export function contentHashCheck(required: boolean, f: RuleFacts): CheckResult | null {
  const name = "content_hash_match";
  if (f.contentHash === null)
    return required ? fail(name, "this pack requires the content hash of the file at hand (content_hash), and none was sent") : null;
  const signed = normaliseContentHash(f.payload.content_hash);
  if (signed === null) return fail(name, "payload has no content_hash (sha256:<hex> or 64 hex digits) to compare with");
  return signed === f.contentHash
    ? pass(name, "the content hash sent equals the attested content_hash")
    : fail(name, "the content hash sent differs from the attested content_hash");
}

/** The pack's checks against verified facts, in RULE_ORDER, then content_hash_match if due. */
export function evaluateRules(rules: PackRules, facts: RuleFacts): CheckResult[] {
  const checks: CheckResult[] = [];
  for (const name of RULE_ORDER) {
    const rule = rules[name];
    if (rule !== undefined) checks.push((EVALUATORS[name] as Evaluator<typeof name>)(rule as never, facts));
  }
  const hash = contentHashCheck(rules.require_content_hash_match === true, facts);
  if (hash) checks.push(hash);
  return checks;
}

/** The names of the checks `rules` produces (for a bundle whose crypto failed: each is then not evaluated). */
export function ruleCheckNames(rules: PackRules, contentHashSent: boolean): string[] {
  const names: string[] = RULE_ORDER.filter((n) => rules[n] !== undefined);
  if (rules.require_content_hash_match === true || contentHashSent) names.push("content_hash_match");
  return names;
}
