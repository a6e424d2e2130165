/** Bounds on an attestation payload: RFC 8785 canonical JSON bytes, and nesting depth. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;
export const MAX_PAYLOAD_DEPTH = 32;
/**
 * Bound on an attestation's leaf data (its RFC 8785 canonical JSON, DESIGN.md): a C2SP
 * tlog-tiles entry bundle stores each entry's length in two bytes. The fields around the
 * payload take 302 bytes (fixed-length id, issuer id, kid, date and signature), so the payload
 * may have at most 65,233 bytes of canonical JSON.
 */
export const MAX_LEAF_BYTES = 65_535;
