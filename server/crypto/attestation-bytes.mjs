// @ts-check
// The signing message and leaf of an attestation, composed from its payload's canonical JSON,
// so it is canonicalised once instead of three times. Plain JavaScript: the signing worker
// (sign.worker.mjs) imports it as it is, and composes a batch's attestations with it where it
// signs them.
//
// Why this equals lib/verify's signingMessage / leafData (the reference): RFC 8785 sorts
// members by UTF-16 code units, and created_at < id < issuer_id < kid < payload < signature;
// it serialises strings exactly as JSON.stringify does. attestation-bytes.test.ts checks the
// equality on random attestations.
import crypto from "node:crypto";

/**
 * @typedef {object} CanonicalAttestation
 * @property {string} id
 * @property {string} issuer_id
 * @property {string} kid
 * @property {string} created_at
 * @property {string} payloadJcs RFC 8785 canonical JSON of the payload.
 */

/**
 * The signed fields of a stored attestation row (or a logged entry's row).
 * @param {{ id: string, issuerId: string, kid: string, createdAt: Date, payload: string }} row
 * @returns {CanonicalAttestation}
 */
export function canonicalFieldsOf(row) {
  return { id: row.id, issuer_id: row.issuerId, kid: row.kid, created_at: row.createdAt.toISOString(), payloadJcs: row.payload };
}

/** lib/verify/attestation.ts's ATTESTATION_PAYLOAD_TYPE (attestation-bytes.test.ts holds them equal). */
export const PAYLOAD_TYPE = "application/vnd.hallmark.attestation.v1+json";

const TYPE_PREFIX = `DSSEv1 ${Buffer.byteLength(PAYLOAD_TYPE)} ${PAYLOAD_TYPE} `;

/**
 * The canonical JSON of an attestation without its closing brace: its signing message and its
 * leaf data both hold it, so a caller that makes both makes it once.
 * @param {CanonicalAttestation} a
 */
export function canonicalBody(a) {
  const s = JSON.stringify;
  return `{"created_at":${s(a.created_at)},"id":${s(a.id)},"issuer_id":${s(a.issuer_id)},"kid":${s(a.kid)},"payload":${a.payloadJcs}`;
}

const CLOSE = 0x7d; // }

/**
 * PAE(type, JCS({id, issuer_id, kid, payload, created_at})): the bytes the issuer key signs,
 * written into one Buffer (from Node's pool when small).
 * @param {CanonicalAttestation} a
 * @param {string} [body] canonicalBody(a), when the caller has it
 * @returns {Buffer}
 */
export function signingMessageOf(a, body = canonicalBody(a)) {
  const length = Buffer.byteLength(body, "utf8") + 1;
  const head = `${TYPE_PREFIX}${length} `; // ASCII
  const out = Buffer.allocUnsafe(head.length + length);
  out.write(head, 0, "latin1");
  out.write(body, head.length, "utf8");
  out[out.length - 1] = CLOSE;
  return out;
}

/**
 * JCS({id, issuer_id, kid, payload, created_at, signature}): the leaf data, written into one
 * Buffer after `reserve` bytes left for the caller (the hash's domain prefix).
 * @param {string} body canonicalBody of the attestation
 * @param {string} signature base64 of its signature
 * @param {number} reserve
 */
function leafInto(body, signature, reserve) {
  const length = Buffer.byteLength(body, "utf8");
  const tail = `,"signature":${JSON.stringify(signature)}}`;
  const out = Buffer.allocUnsafe(reserve + length + Buffer.byteLength(tail, "utf8"));
  out.write(body, reserve, "utf8");
  out.write(tail, reserve + length, "utf8");
  return out;
}

/**
 * JCS({id, issuer_id, kid, payload, created_at, signature}): the leaf data, written into one Buffer.
 * @param {CanonicalAttestation} a
 * @param {string} signature base64 of its signature
 * @param {string} [body] canonicalBody(a), when the caller has it
 * @returns {Buffer}
 */
export function leafDataOf(a, signature, body = canonicalBody(a)) {
  return leafInto(body, signature, 0);
}

/**
 * Attestations to compose and sign together, each string column joined, with where each
 * item's value ends (a structured clone copies a few long strings much faster than thousands of
 * short ones). Item i is signed by signers[signerOf[i]].
 * @typedef {object} AttestRequest
 * @property {[issuer_id: string, kid: string][]} signers
 * @property {Uint32Array} signerOf
 * @property {string} ids
 * @property {Uint32Array} idEnds
 * @property {string} createdAts
 * @property {Uint32Array} createdAtEnds
 * @property {string} payloads RFC 8785 canonical JSON of each payload, joined
 * @property {Uint32Array} payloadEnds
 */

/**
 * What attest makes of an AttestRequest: each signature in base64 (88 characters), the leaf
 * hashes (RFC 9162 SHA-256(0x00 ‖ leaf data), 32 bytes each) and each leaf's size in bytes.
 * @typedef {{ signatures: string, leafHashes: Uint8Array<ArrayBuffer>, leafSizes: Uint32Array<ArrayBuffer> }} Attested
 */

/** Characters of a 64-byte signature in padded base64. */
export const SIGNATURE_CHARS = 88;

/**
 * @param {string} joined
 * @param {Uint32Array} ends
 * @param {number} i
 */
const part = (joined, ends, i) => joined.slice(i === 0 ? 0 : ends[i - 1], ends[i]);

/**
 * Composes, signs and hashes every attestation of `req` (Ed25519, RFC 8032: deterministic, so
 * the thread it runs on changes nothing in what it makes).
 * @param {AttestRequest} req
 * @param {(kid: string) => crypto.KeyObject} keyOf
 * @returns {Attested}
 */
export function attest(req, keyOf) {
  const n = req.signerOf.length;
  const signatures = [];
  const leafHashes = new Uint8Array(32 * n);
  const leafSizes = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const [issuer_id, kid] = /** @type {[string, string]} */ (req.signers[/** @type {number} */ (req.signerOf[i])]);
    const fields = {
      id: part(req.ids, req.idEnds, i),
      issuer_id,
      kid,
      created_at: part(req.createdAts, req.createdAtEnds, i),
      payloadJcs: part(req.payloads, req.payloadEnds, i),
    };
    const body = canonicalBody(fields);
    const signature = crypto.sign(null, signingMessageOf(fields, body), keyOf(kid)).toString("base64");
    signatures.push(signature);
    const prefixed = leafInto(body, signature, 1);
    prefixed[0] = 0x00; // RFC 9162 leaf hash domain
    leafSizes[i] = prefixed.length - 1;
    leafHashes.set(crypto.hash("sha256", prefixed, "buffer"), 32 * i);
  }
  return { signatures: signatures.join(""), leafHashes, leafSizes };
}
