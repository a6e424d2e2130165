/**
 * Bound on an attestation's leaf data (its RFC 8785 canonical JSON, ARCHITECTURE.md "Formats"): a C2SP
 * tlog-tiles entry bundle stores each entry's length in two bytes. Checked on the signed
 * attestation itself (signAttestation).
 */
export const MAX_LEAF_BYTES = 65_535;
/** The fields around the payload in the leaf data: fixed-length id, issuer id, kid, date and signature. */
export const LEAF_FIELDS_BYTES = 302;
/** Bounds on an attestation payload: RFC 8785 canonical JSON bytes (what leaves room in the leaf), and nesting depth. */
export const MAX_PAYLOAD_BYTES = MAX_LEAF_BYTES - LEAF_FIELDS_BYTES;
export const MAX_PAYLOAD_DEPTH = 32;
