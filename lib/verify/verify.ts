// One verification of what Hallmark publishes: a proof bundle, a C2SP tlog-proof, or a
// certificate's attachments and page text, under the trust its caller pins (a log key or a
// tlog-policy with its witnesses, a TSA's certificate) and, for a page, against the facts the page
// states. It composes this folder's checks and answers every one that ran, in order, with its
// state and reason. The CLI (scripts/verify.ts) prints the answer and the verify page
// (app/verify/[id]/proof-check.tsx) draws it; neither decides anything itself.
//
// A check that did not run because an earlier one failed is left out; one that did not run for a
// reason of its own (no witnesses named, no TSA to check a time-stamp with) is "skipped", with why.
import type { TimestampedEntry } from "./bundle-timestamp";
import { type CheckName, verifyProofBundle } from "./bundle";
import type { EntryKind } from "./sealed";
import { hasSeal } from "./bundle-shape";
import { utf8Decode } from "./encoding";
import { isVerifyError, type VerifyErrorCode } from "./errors";
import { resolveLogKey, type LogPublicKey } from "./log-key";
import type { Policy } from "./policy";
import { type TlogProofVerification, verifyTlogProof } from "./tlog-proof";
import { type Cosigner, describeCosigners, verifyWitnessedCheckpoint } from "./witnessed";
import { parseJson } from "./json-parse";

export type StepName =
  | CheckName
  /** The evidence could not be read: not JSON, not a tlog-proof, a certificate without its bundle. */
  | "evidence"
  | "page_match"
  | "witnesses"
  | "timestamp"
  /** A certificate's two attachments prove the same attestation. */
  | "certificate_match"
  /** A certificate's page states the hash and the entry its attachments prove, and no other hash. */
  | "certificate_text"
  /** The entry is a sealed leaf without its opening: what it seals cannot be checked (skipped, "sealed"). */
  | "sealed_entry";

/** Why a step did not run. */
export type SkipReason =
  /** The policy names no witnesses: its checkpoints are the log's word alone. */
  | "no_witnesses"
  /** There is a time-stamp (or a page's time-stamp line), but no TSA certificate to check it with. */
  | "no_tsa"
  /** A TSA is trusted, but the bundle carries no timestamp yet (it was not required). */
  | "not_time_stamped"
  /** A sealed leaf without its opening: its content is its owner's, and only the owner's proof opens it. */
  | "sealed";

export type Step = {
  name: StepName;
  detail: string;
  /** Which part of the evidence the step is about: a certificate's attachment, or "certificate". */
  part?: string;
} & ({ state: "pass" } | { state: "fail"; code: VerifyErrorCode } | { state: "skipped"; why: SkipReason });

/** What a page states of the protection it shows: the bundle must be about exactly this. */
export interface PageFacts {
  protectionId: string;
  /** The SHA-256 of the file, in hex (no "sha256:"). */
  contentHash: string;
  attestationId: string;
}

export type Evidence =
  | { kind: "bundle"; bundle: unknown; page?: PageFacts }
  | { kind: "tlog-proof"; text: string }
  | { kind: "certificate"; attachments: ReadonlyMap<string, Uint8Array>; text: string };

export interface Trust {
  /** The log's key (raw, PEM or note verifier key); without it, the policy's key for the evidence's origin. */
  logPublicKey?: LogPublicKey;
  /** If set, the checkpoint's origin must be this. */
  origin?: string;
  /** A C2SP tlog-policy: the checkpoint must be cosigned by its quorum of witnesses. */
  policy?: Policy;
  /** PEM of the certificate(s) a time-stamp must chain to (a TSA's root, or its own). */
  tsaPem?: string;
  /** With tsaPem: a bundle without a time-stamp fails, instead of being said not to have one. */
  requireTimestamp?: boolean;
}

export interface Verification {
  ok: boolean;
  steps: Step[];
  /** The first failure. */
  failure?: { code: VerifyErrorCode; reason: string };
  /** Whether the entry is a sealed one with its opening (its seal's checks are among the steps). */
  sealed: boolean;
  /** What the entry is, once its proof verified: open, opened (sealed, with its opening) or sealed (a sealed leaf alone). */
  kind?: EntryKind;
  /** The bundle's entry, once the bundle verified. */
  entry?: { logIndex: number; treeSize: number; rootHash: string };
  /** The checkpoint's witnesses under the policy, once they were checked. */
  witnesses?: { cosigners: Cosigner[]; rule: string; met: boolean };
  /** When the entry existed by, once its time-stamp verified. */
  timestamp?: TimestampedEntry;
  /** What the tlog-proof proves, once it verified. */
  tlogProof?: TlogProofVerification;
}

type Run = Omit<Verification, "ok">;

function fail(run: Run, name: StepName, code: VerifyErrorCode, detail: string, part?: string): void {
  run.steps.push({ name, state: "fail", code, detail, ...(part ? { part } : {}) });
  run.failure ??= { code, reason: detail };
}

const originOf = (bundle: unknown): unknown => (bundle as { signed_tree_head?: { origin?: unknown } } | null)?.signed_tree_head?.origin;

/** The key the evidence's checkpoint is checked with: the pinned one, else the policy's for its origin. */
function logKeyFor(trust: Trust, origin: unknown): LogPublicKey | undefined {
  return trust.logPublicKey ?? trust.policy?.logs.find((l) => l.origin === origin)?.vkey;
}

export async function verify(evidence: Evidence, trust: Trust): Promise<Verification> {
  const run: Run = { steps: [], sealed: false };
  if (evidence.kind === "bundle") await bundleSteps(run, evidence.bundle, trust, evidence.page);
  else if (evidence.kind === "tlog-proof") tlogProofSteps(run, evidence.text, trust);
  else await certificateSteps(run, evidence, trust);
  return { ok: run.failure === undefined && run.steps.length > 0, ...run };
}

async function bundleSteps(run: Run, input: unknown, trust: Trust, page?: PageFacts, part?: string) {
  const at = part ? { part } : {};
  let bundle = input;
  if (typeof input === "string") {
    try {
      bundle = parseJson(input);
    } catch {
      // verifyProofBundle says it is malformed.
    }
  }
  run.sealed = hasSeal(bundle);
  const origin = originOf(bundle);
  const key = logKeyFor(trust, origin);
  if (key === undefined)
    return fail(run, "checkpoint_signature", "unknown_log", `the policy has no log key for origin "${String(origin)}"`, part);
  const r = verifyProofBundle(bundle, { logPublicKey: key, origin: trust.origin });
  for (const c of r.checks)
    if (c.ok) run.steps.push({ name: c.name, state: "pass", detail: c.detail, ...at });
    else fail(run, c.name, r.ok ? "malformed_bundle" : r.code, c.detail, part);
  if (!r.ok && r.checks.length === 0) fail(run, "evidence", r.code, r.message, part);
  if (r.ok) {
    run.entry = { logIndex: r.logIndex, treeSize: r.treeSize, rootHash: r.rootHash };
    noteKind(run, r.kind, part);
  }
  if (page && typeof bundle === "object" && bundle !== null) pageMatch(run, bundle, page);
  if (run.failure) return;
  const note = (bundle as { signed_tree_head: { checkpoint: string } }).signed_tree_head.checkpoint;
  if (trust.policy) witnessSteps(run, note, trust.policy, part);
  if (!run.failure) await timestampStep(run, bundle, key, trust, part);
}

/** What the entry is; for a sealed leaf alone, a step that says what cannot be checked, and why. */
function noteKind(run: Run, kind: EntryKind, part?: string) {
  run.kind = kind;
  if (kind !== "sealed") return;
  run.steps.push({
    name: "sealed_entry",
    state: "skipped",
    why: "sealed",
    detail:
      "a sealed entry: the log holds only a commitment to an attestation, whose content is its owner's; its signature and inclusion verify, and only its owner's proof opens it",
    ...(part ? { part } : {}),
  });
}

/** A valid bundle of some other work must not pass as the one a page shows. */
function pageMatch(run: Run, bundle: object, expected: PageFacts) {
  const a = (bundle as { attestation?: { id?: unknown; payload?: Record<string, unknown> } }).attestation;
  const payload = a?.payload ?? {};
  const problems: string[] = [];
  if (payload.protection_id !== expected.protectionId)
    problems.push(`it is for protection ${String(payload.protection_id)}, not ${expected.protectionId}`);
  if (payload.content_hash !== `sha256:${expected.contentHash}`)
    problems.push(`its content hash is ${String(payload.content_hash)}, not sha256:${expected.contentHash}`);
  if (a?.id !== expected.attestationId) problems.push(`its attestation is ${String(a?.id)}, not ${expected.attestationId}`);
  if (problems.length) return fail(run, "page_match", "page_mismatch", `the bundle does not belong to this page: ${problems.join("; ")}`);
  run.steps.push({
    name: "page_match",
    state: "pass",
    detail: "protection ID, content hash and attestation ID are the ones shown on this page",
  });
}

function witnessSteps(run: Run, note: string, policy: Policy, part?: string) {
  if (policy.witnesses.length === 0 && policy.quorum === "none") {
    run.steps.push({
      name: "witnesses",
      state: "skipped",
      why: "no_witnesses",
      detail: "the policy names no witnesses: its checkpoints are signed by the log alone",
      ...(part ? { part } : {}),
    });
    return;
  }
  try {
    const w = verifyWitnessedCheckpoint(note, policy);
    run.witnesses = { cosigners: w.cosigners, rule: w.quorum.rule, met: w.quorum.met };
    const who = describeCosigners(w.cosigners);
    if (!w.quorum.met) return fail(run, "witnesses", "quorum_not_met", `cosigned by ${who}; the policy requires ${w.quorum.rule}`, part);
    run.steps.push({
      name: "witnesses",
      state: "pass",
      detail: `cosigned by ${who}; quorum ${w.quorum.rule} met`,
      ...(part ? { part } : {}),
    });
  } catch (e) {
    if (!isVerifyError(e)) throw e;
    fail(run, "witnesses", e.code, e.message, part);
  }
}

/** A bundle's RFC 3161 time-stamp. PKI.js is loaded only when there is a token and a TSA to check it with. */
async function timestampStep(run: Run, bundle: unknown, logKey: LogPublicKey, trust: Trust, part?: string) {
  const at = part ? { part } : {};
  const stamped = (bundle as { timestamp?: unknown }).timestamp !== undefined;
  if (!trust.tsaPem) {
    if (stamped)
      run.steps.push({
        name: "timestamp",
        state: "skipped",
        why: "no_tsa",
        detail: "the bundle carries an RFC 3161 timestamp; no TSA certificate was given to check it",
        ...at,
      });
    return;
  }
  if (!stamped) {
    if (trust.requireTimestamp) return fail(run, "timestamp", "timestamp_missing", "the bundle carries no RFC 3161 timestamp", part);
    run.steps.push({ name: "timestamp", state: "skipped", why: "not_time_stamped", detail: "the bundle carries no timestamp yet", ...at });
    return;
  }
  try {
    const [{ verifyBundleTimestamp }, { parseCertificates }] = await Promise.all([import("./bundle-timestamp"), import("./rfc3161")]);
    const t = await verifyBundleTimestamp(bundle, {
      logPublicKey: logKey,
      origin: trust.origin,
      tsaCertificates: parseCertificates(trust.tsaPem),
    });
    run.timestamp = t!;
    run.steps.push({
      name: "timestamp",
      state: "pass",
      detail: `the entry existed no later than ${t!.existedBy.toISOString()}, per ${t!.tsa} (time-stamped tree of size ${t!.treeSize})`,
      ...at,
    });
  } catch (e) {
    fail(run, "timestamp", isVerifyError(e) ? e.code : "timestamp_invalid", (e as Error).message, part);
  }
}

/** Where a tlog-proof's failure is reported, by its code. */
function tlogProofStepOf(code: VerifyErrorCode): StepName {
  if (["checkpoint_signature_invalid", "malformed_checkpoint", "origin_mismatch", "invalid_log_key", "unknown_log"].includes(code))
    return "checkpoint_signature";
  if (code === "cosignature_invalid" || code === "quorum_not_met") return "witnesses";
  if (code === "seal_opening_invalid") return "seal_opening";
  if (code === "inclusion_proof_invalid") return "inclusion";
  return "evidence";
}

function tlogProofSteps(run: Run, text: string, trust: Trust, part?: string): TlogProofVerification | undefined {
  const at = part ? { part } : {};
  try {
    const proofTrust = (() => {
      if (trust.policy) return { policy: trust.policy };
      if (trust.logPublicKey === undefined) return null;
      const key = resolveLogKey(trust.logPublicKey, trust.origin);
      return { logPublicKey: key.publicKey, origin: trust.origin, mlDsa44: key.mlDsa44 };
    })();
    if (!proofTrust) {
      fail(run, "checkpoint_signature", "unknown_log", "no log key or policy to check the proof's checkpoint with", part);
      return undefined;
    }
    const r = verifyTlogProof(text, proofTrust, (name, detail) => run.steps.push({ name, state: "pass", detail, ...at }));
    run.sealed ||= r.sealed !== undefined;
    noteKind(run, r.kind, part);
    if (trust.policy) run.witnesses = { cosigners: r.cosigners, rule: r.quorum ?? "", met: true };
    run.tlogProof = r;
    return r;
  } catch (e) {
    const code = isVerifyError(e) ? e.code : "malformed_tlog_proof";
    fail(run, tlogProofStepOf(code), code, isVerifyError(e) ? e.message : "the proof could not be read", part);
    return undefined;
  }
}

const CERTIFICATE_BUNDLE = "proof-bundle.json";

/**
 * A certificate: its attached proof bundle and tlog-proof verified as files of their own, then its
 * page must state the SHA-256 and the log entry those attachments prove, and show no 32-byte hash
 * they do not prove (a page is what a person reads; the attachments are what proves it).
 */
async function certificateSteps(run: Run, cert: { attachments: ReadonlyMap<string, Uint8Array>; text: string }, trust: Trust) {
  const attached = cert.attachments.get(CERTIFICATE_BUNDLE);
  if (!attached) return fail(run, "evidence", "malformed_certificate", `the PDF has no ${CERTIFICATE_BUNDLE} attachment`, "certificate");
  let bundle: { attestation?: { id?: unknown; payload?: { content_hash?: unknown } } };
  try {
    bundle = parseJson(utf8Decode(attached)) as typeof bundle;
  } catch {
    return fail(run, "evidence", "malformed_bundle", `the attached ${CERTIFICATE_BUNDLE} is not JSON`, CERTIFICATE_BUNDLE);
  }
  await bundleSteps(run, bundle, trust, undefined, CERTIFICATE_BUNDLE);
  if (run.failure) return;
  const proofName = [...cert.attachments.keys()].find((n) => n.endsWith(".tlog-proof"));
  if (proofName) {
    let text: string;
    try {
      text = utf8Decode(cert.attachments.get(proofName)!);
    } catch {
      return fail(run, "evidence", "malformed_tlog_proof", `the attached ${proofName} is not UTF-8`, proofName);
    }
    const r = tlogProofSteps(run, text, trust, proofName);
    if (!r) return;
    if (r.attestation.id !== bundle.attestation?.id)
      return fail(
        run,
        "certificate_match",
        "certificate_mismatch",
        "the attached tlog-proof is of another attestation than the proof bundle",
        "certificate",
      );
  }
  const hash = String(bundle.attestation?.payload?.content_hash ?? "").replace(/^sha256:/, "");
  const entry = run.entry!.logIndex;
  const page = cert.text.replace(/\s+/g, "");
  if (!/^[0-9a-f]{64}$/.test(hash) || !page.includes(hash) || !page.includes(`entry${entry}of`))
    return fail(
      run,
      "certificate_text",
      "certificate_mismatch",
      "the page does not state the SHA-256 and the log entry its attachments prove",
      "certificate",
    );
  // Every 32-byte hash the page shows is one the attachments prove: the file's, or a checkpoint's root.
  const b = bundle as { signed_tree_head?: { root_hash?: string }; timestamp?: { inclusion_proof?: { root_hash?: string } } };
  const proven = new Set([hash, b.signed_tree_head?.root_hash, b.timestamp?.inclusion_proof?.root_hash]);
  const other = (cert.text.match(/\b[0-9a-fA-F]{64}\b/g) ?? []).find((h) => !proven.has(h.toLowerCase()));
  if (other)
    return fail(
      run,
      "certificate_text",
      "certificate_mismatch",
      `the page shows the hash ${other}, which its attachments do not prove`,
      "certificate",
    );
  run.steps.push({
    name: "certificate_text",
    state: "pass",
    detail: `the page states SHA-256 ${hash} and log entry ${entry}, as its attachments prove`,
    part: "certificate",
  });
  if (!trust.tsaPem && /Time-stamped/.test(cert.text))
    run.steps.push({
      name: "certificate_text",
      state: "skipped",
      why: "no_tsa",
      detail: "the page's time-stamp line is not checked without a TSA certificate",
      part: "certificate",
    });
}
