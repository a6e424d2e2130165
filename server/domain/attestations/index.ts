// Signing: issuers and their keys, composing and signing attestations (one or a batch),
// sealing a private one, and the bounds of a log entry.
// Other contexts and layers import this context through this file only.
export * from "./attestation-batch";
export * from "./attestations";
export * from "./issuer-cache";
export * from "./issuers";
export * from "./leaf-bounds";
export * from "./personal-issuer";
export * from "./sealing";
export * from "./signing-keys";
