/** Bounds on an attestation payload: RFC 8785 canonical JSON bytes, and nesting depth. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;
export const MAX_PAYLOAD_DEPTH = 32;
