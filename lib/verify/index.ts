// The offline verifier's public API: pure and isomorphic (browsers, Node, the CLI). It verifies
// what Hallmark publishes (proof bundles, checkpoints and their witnesses, consistency proofs,
// tlog-proofs, tiles) against keys and policies the caller pins. The primitives it is built from
// (encodings, canonical JSON, Merkle hashing, signed-note formatting) are imported from their own
// modules by the code that needs them, the server included.
export { verifyAttestationSignature } from "./attestation";
export { BUNDLE_CHECKS, SEALED_CHECKS, verifyProofBundle } from "./bundle";
export type { BundleVerification, Check, CheckName, VerifyBundleOptions } from "./bundle";
export { hasSeal, MAX_BUNDLE_BYTES, parseProofBundle } from "./bundle-shape";
export type { ProofBundle } from "./bundle-shape";
export { parseVerifierKey, verifyCheckpoint } from "./checkpoint";
export type { Checkpoint, VerifiedCheckpoint } from "./checkpoint";
export { verifyConsistencyProof } from "./consistency";
export type { ConsistencyInput, ConsistencyVerification, TreeHead } from "./consistency";
export { VERIFY_ERROR_CODES, VerifyError, isVerifyError } from "./errors";
export type { VerifyErrorCode } from "./errors";
export { parsePublicKeyPem } from "./keys";
export { resolveLogKey } from "./log-key";
export { parseMlDsaLogKey, verifyLogCheckpoint } from "./log-signature";
export type { LogKey } from "./log-signature";
export type { LogPublicKey } from "./log-key";
export { PolicyError, describeQuorum, parsePolicy, quorumMet } from "./policy";
export type { Policy, PolicyGroup, PolicyLog, PolicyWitness } from "./policy";
export {
  SEALED_PAYLOAD_TYPE,
  SEALED_V1,
  SEALED_V2,
  checkSealOpening,
  entryKindOf,
  isSealedPayload,
  sealCommitment,
  sealedCreatedAt,
  sealedPayload,
} from "./sealed";
export type { EntryKind, SealOpening, SealedType } from "./sealed";
export { TILE_WIDTH, decodeEntryBundle, entriesMatchTile, tileHashes, tilePath } from "./tiles";
export type { TileAddress } from "./tiles";
export { parseTlogProof, verifyTlogProof } from "./tlog-proof";
export type { LoggedAttestation, TlogProof, TlogProofVerification } from "./tlog-proof";
export { verify } from "./verify";
export type { Evidence, PageFacts, SkipReason, Step, StepName, Trust, Verification } from "./verify";
export { describeCosigners, requireQuorum, verifyWitnessedCheckpoint } from "./witnessed";
export type { Cosigner, WitnessedCheckpoint } from "./witnessed";
