// Public API of the offline verifier. Pure and isomorphic: runs in browsers, Node and the CLI.
export { ATTESTATION_PAYLOAD_TYPE, leafData, pae, signingBody, signingMessage, verifyAttestationSignature } from "./attestation";
export type { AttestationSigningFields, SignedAttestationFields } from "./attestation";
export { verifyProofBundle } from "./bundle";
export type { BundleVerification, Check, CheckName, VerifyBundleOptions } from "./bundle";
export { MAX_BUNDLE_BYTES, MAX_PROOF_HASHES, parseProofBundle } from "./bundle-shape";
export type { ProofBundle } from "./bundle-shape";
export {
  MAX_NOTE_BYTES,
  MAX_NOTE_SIGNATURES,
  formatCheckpointBody,
  formatSignedNote,
  isValidKeyName,
  noteKeyId,
  noteSignatureBase64,
  parseCheckpointBody,
  parseSignedNote,
  parseVerifierKey,
  verifierKey,
  verifyCheckpoint,
  verifyNote,
} from "./checkpoint";
export type { Checkpoint, NoteSignature, ParsedNote, VerifiedCheckpoint } from "./checkpoint";
export { verifyConsistencyProof } from "./consistency";
export type { ConsistencyInput, ConsistencyVerification, TreeHead } from "./consistency";
export { isValidEd25519PublicKey, verifyEd25519 } from "./ed25519";
export {
  EncodingError,
  base64ToBytes,
  base64UrlToBytes,
  bytesEqual,
  bytesToBase64,
  bytesToBase64Url,
  bytesToHex,
  concatBytes,
  hexToBytes,
  utf8Decode,
  utf8Encode,
} from "./encoding";
export { VERIFY_ERROR_CODES, VerifyError, isVerifyError } from "./errors";
export type { VerifyErrorCode } from "./errors";
export { canonicalJson } from "./jcs";
export { KeyFormatError, jwkThumbprint, parsePublicKeyPem, parseSpkiDer, publicKeyToJwk, publicKeyToPem, publicKeyToSpkiDer } from "./keys";
export { resolveLogKey } from "./log-key";
export type { LogPublicKey } from "./log-key";
export {
  HASH_SIZE,
  MerkleProofError,
  emptyRootHash,
  isPow2,
  leafHash,
  nodeHash,
  rootFromInclusionProof,
  sha256Bytes,
  verifyConsistency,
  verifyInclusion,
} from "./merkle";
export { compareInstants, parseTimestamp } from "./timestamp";
export type { Instant } from "./timestamp";
export { COSIGNATURE_ED25519, COSIGNATURE_ML_DSA_44, cosignerKeyId, parseCosignerKey, verifyCosignature } from "./cosignature";
export type { CosignerKey } from "./cosignature";
export { PolicyError, describeQuorum, formatPolicy, parsePolicy, quorumMet } from "./policy";
export type { Policy, PolicyGroup, PolicyLog, PolicyWitness } from "./policy";
export { requireQuorum, verifyWitnessedCheckpoint } from "./witnessed";
export type { Cosigner, WitnessedCheckpoint } from "./witnessed";
export { decodeEntryBundle, encodeTileIndex, entriesMatchTile, parseTilePath, partialTileWidth, tileHashes, tilePath, TILE_WIDTH } from "./tiles";
export type { TileAddress } from "./tiles";
