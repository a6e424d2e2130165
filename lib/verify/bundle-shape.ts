// Defensive shape validation of a proof bundle (attacker-controlled input).
// Only the fields the verifier relies on are required; unknown extra fields are ignored so
// the server can add fields without breaking old verifiers.
import { leafData } from "./attestation";
import { utf8Decode, utf8Encode } from "./encoding";
import { VerifyError } from "./errors";
import { MAX_NOTE_BYTES } from "./checkpoint";
import { parseJson } from "./json-parse";

export const MAX_BUNDLE_BYTES = 1024 * 1024;
/** A proof for a tree of up to 2^64 leaves has at most 64 hashes. */
export const MAX_PROOF_HASHES = 64;

export interface ProofBundle {
  attestation: {
    id: string;
    issuer_id: string;
    kid: string;
    status?: string;
    payload: Record<string, unknown>;
    signature: string;
    log_index: number;
    created_at: string;
  };
  issuer: {
    id: string;
    tenant_id?: string;
    name?: string;
    domain?: string;
    status?: string;
    trust_level?: string;
    created_at?: string;
    updated_at?: string;
  };
  key: {
    kid: string;
    issuer_id: string;
    algorithm: string;
    public_key: string;
    status?: string;
    not_before: string;
    /** null (or absent) means the key never expires. */
    expires_at: string | null;
  };
  inclusion_proof: { log_index: number; tree_size: number; root_hash: string; hashes: string[] };
  signed_tree_head: { tree_size: number; root_hash: string; signature: string; origin: string; timestamp?: string; checkpoint: string };
  /**
   * Present when the log holds the attestation sealed (lib/verify/sealed.ts): the leaf the log
   * holds, the salt that opens it to `attestation`, and the sealing issuer and key that signed it.
   */
  seal?: {
    leaf: { id: string; issuer_id: string; kid: string; payload: Record<string, unknown>; created_at: string; signature: string };
    salt: string;
    issuer: ProofBundle["issuer"];
    key: ProofBundle["key"];
  };
}

type Obj = Record<string, unknown>;
const SHORT = 256;
const MEDIUM = 4096;
const HEX32 = /^[0-9a-f]{64}$/;

const bad = (path: string, what: string) => new VerifyError("malformed_bundle", `${path} ${what}`);

function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function obj(parent: Obj, key: string, path: string): Obj {
  const v = parent[key];
  if (!isObject(v)) throw bad(`${path}${key}`, "must be an object");
  return v;
}

function str(o: Obj, key: string, path: string, max = SHORT, optional = false): void {
  const v = o[key];
  if (optional && (v === undefined || v === null)) return;
  // Required strings must be non-empty; optional (descriptive) ones may be empty.
  if (typeof v !== "string" || (!optional && v.length === 0) || v.length > max) {
    throw bad(`${path}${key}`, `must be a ${optional ? "" : "non-empty "}string of at most ${max} characters`);
  }
}

function int(o: Obj, key: string, path: string): void {
  const v = o[key];
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw bad(`${path}${key}`, "must be a non-negative integer");
}

function hex32(o: Obj, key: string, path: string): void {
  if (typeof o[key] !== "string" || !HEX32.test(o[key] as string)) throw bad(`${path}${key}`, "must be 64 lowercase hex digits");
}

function issuerShape(i: Obj, path: string): void {
  str(i, "id", path);
  for (const k of ["tenant_id", "name", "domain", "status", "trust_level", "created_at", "updated_at"]) str(i, k, path, MEDIUM, true);
}

function keyShape(k: Obj, path: string): void {
  for (const f of ["kid", "issuer_id", "algorithm", "not_before"]) str(k, f, path);
  str(k, "public_key", path, MEDIUM);
  str(k, "status", path, SHORT, true);
  str(k, "expires_at", path, SHORT, true);
}

/** Whether a bundle (as parsed JSON, not yet checked) says its entry is sealed: it has a `seal`. */
export const hasSeal = (bundle: unknown): boolean => typeof bundle === "object" && bundle !== null && "seal" in bundle;

/** The leaf data the log holds for a bundle's entry: its sealed leaf's when sealed, else its attestation's. */
export const loggedLeafData = (b: ProofBundle): Uint8Array => leafData(b.seal ? b.seal.leaf : b.attestation);

/** JSON text or bytes are parsed; objects are measured by their JSON serialization. */
function toValue(input: unknown, maxBytes: number): unknown {
  let text: string;
  if (typeof input === "string" || input instanceof Uint8Array) {
    const size = typeof input === "string" ? input.length : input.length;
    if (size > maxBytes) throw new VerifyError("bundle_too_large", `bundle exceeds ${maxBytes} bytes`);
    try {
      text = typeof input === "string" ? input : utf8Decode(input);
    } catch {
      throw new VerifyError("malformed_bundle", "bundle is not valid UTF-8");
    }
    if (utf8Encode(text).length > maxBytes) throw new VerifyError("bundle_too_large", `bundle exceeds ${maxBytes} bytes`);
    try {
      return parseJson(text);
    } catch {
      throw new VerifyError("malformed_bundle", "bundle is not valid JSON");
    }
  }
  try {
    text = JSON.stringify(input) ?? "";
  } catch {
    throw new VerifyError("malformed_bundle", "bundle is not JSON-serializable");
  }
  if (text.length > maxBytes || utf8Encode(text).length > maxBytes)
    throw new VerifyError("bundle_too_large", `bundle exceeds ${maxBytes} bytes`);
  return input;
}

/** Validates and returns the bundle; throws VerifyError (malformed_bundle / bundle_too_large). */
export function parseProofBundle(input: unknown, maxBytes = MAX_BUNDLE_BYTES): ProofBundle {
  const root = toValue(input, maxBytes);
  if (!isObject(root)) throw bad("bundle", "must be a JSON object");

  const a = obj(root, "attestation", "");
  for (const k of ["id", "issuer_id", "kid", "created_at"]) str(a, k, "attestation.");
  str(a, "status", "attestation.", SHORT, true);
  str(a, "signature", "attestation.", MEDIUM);
  int(a, "log_index", "attestation.");
  if (!isObject(a.payload)) throw bad("attestation.payload", "must be an object");

  issuerShape(obj(root, "issuer", ""), "issuer.");
  keyShape(obj(root, "key", ""), "key.");

  const p = obj(root, "inclusion_proof", "");
  int(p, "log_index", "inclusion_proof.");
  int(p, "tree_size", "inclusion_proof.");
  hex32(p, "root_hash", "inclusion_proof.");
  const hashes = p.hashes;
  if (!Array.isArray(hashes) || hashes.length > MAX_PROOF_HASHES) {
    throw bad("inclusion_proof.hashes", `must be an array of at most ${MAX_PROOF_HASHES} hashes`);
  }
  hashes.forEach((h, n) => {
    if (typeof h !== "string" || !HEX32.test(h)) throw bad(`inclusion_proof.hashes[${n}]`, "must be 64 lowercase hex digits");
  });

  const s = obj(root, "signed_tree_head", "");
  int(s, "tree_size", "signed_tree_head.");
  hex32(s, "root_hash", "signed_tree_head.");
  str(s, "signature", "signed_tree_head.", MEDIUM);
  str(s, "origin", "signed_tree_head.", MEDIUM);
  str(s, "timestamp", "signed_tree_head.", SHORT, true);
  str(s, "checkpoint", "signed_tree_head.", MAX_NOTE_BYTES);

  if (root.seal !== undefined) {
    const seal = obj(root, "seal", "");
    const leaf = obj(seal, "leaf", "seal.");
    for (const f of ["id", "issuer_id", "kid", "created_at"]) str(leaf, f, "seal.leaf.");
    str(leaf, "signature", "seal.leaf.", MEDIUM);
    if (!isObject(leaf.payload)) throw bad("seal.leaf.payload", "must be an object");
    str(seal, "salt", "seal.");
    issuerShape(obj(seal, "issuer", "seal."), "seal.issuer.");
    keyShape(obj(seal, "key", "seal."), "seal.key.");
  }

  return root as unknown as ProofBundle;
}
