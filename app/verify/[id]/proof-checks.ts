// The proof check as a pure run (no React): it downloads the proof bundle, the log's key and
// policy (proof-sources.ts), verifies them with lib/verify, and answers one row per check in the
// page's words. Nothing here trusts the page's own rendering of the facts: the check that the
// bundle matches this page ties it to the protection the page is about.
import { BUNDLE_CHECKS, parsePolicy, SEALED_CHECKS, verify, type Check, type Policy, type Step, type Verification } from "@/lib/verify";
import { parseJson } from "@/lib/verify/json-parse";
import { readPinnedPolicy } from "../../_components/pinned-policy";
import { DownloadFailed, fetchText, logKeyFor, type LogInfo } from "./proof-sources";

export type CheckId = Check["name"] | "page_match" | "witnesses" | "timestamp";
export type CheckState = { id: CheckId; state: "pending" | "pass" | "fail" | "skipped"; detail: string };

export const CHECKS: Array<{ id: CheckId; label: string; explains: string }> = [
  { id: "checkpoint_signature", label: "Log checkpoint signature", explains: "The log's signed tree head verifies under the log key." },
  {
    id: "seal_opening",
    label: "Sealed entry opened",
    explains: "The log holds this attestation sealed; the salt and the attestation give the commitment the log holds.",
  },
  { id: "inclusion", label: "Included in the log", explains: "The attestation (or its sealed leaf) is a leaf of that signed tree." },
  { id: "seal_signature", label: "Sealed by the log's sealing key", explains: "The sealing issuer's Ed25519 key signed the sealed leaf." },
  { id: "attestation_signature", label: "Signature by the issuer's key", explains: "The issuer's Ed25519 key signed the attestation." },
  { id: "key_validity", label: "Key valid at signing time", explains: "The key was within its validity window when it signed." },
  { id: "page_match", label: "Bundle matches this page", explains: "The bundle is about this protection, this hash and this attestation." },
  {
    id: "witnesses",
    label: "Cosigned by independent witnesses",
    explains: "Witnesses named by the policy vouch that everyone sees this same log.",
  },
  {
    id: "timestamp",
    label: "Time-stamped by an independent authority",
    explains: "An RFC 3161 time-stamping authority signed that the log held this entry by its time.",
  },
];

/** What the page checks against: the protection it is about. */
export interface Expected {
  protectionId: string;
  contentHash: string;
  attestationId: string;
}

export type Outcome =
  | { phase: "running" }
  /** The log has this entry, but its witnesses have not yet cosigned a checkpoint that covers it. */
  | { phase: "waiting"; retryAfter: number }
  | {
      phase: "done";
      ok: boolean;
      reason: string | null;
      checks: CheckState[];
      bundleText: string | null;
      log: LogInfo | null;
      unwitnessed: boolean;
      pinned: boolean;
    };

/** How many times the page asks again while the witnesses have not cosigned (about 7 s each: the server waits 5). */
export const WAIT_TRIES = 40;
export const stillUnwitnessed = () => ({
  ok: false,
  reason:
    "The log's witnesses have not cosigned this entry's checkpoint yet, so its proof cannot be checked against the log's policy. Try again later.",
  checks: initialChecks().map((c) => ({ ...c, state: "skipped" as const, detail: "Not checked: the witnesses have not cosigned yet." })),
  bundleText: null,
  log: null,
  unwitnessed: true,
  pinned: false,
});

const when = (t: number) => {
  const iso = new Date(t * 1000).toISOString();
  return `${iso.slice(11, 19)} UTC on ${iso.slice(0, 10)}`;
};

/** The checks only a sealed entry's bundle runs. */
const SEAL_CHECKS: CheckId[] = SEALED_CHECKS.filter((c) => !(BUNDLE_CHECKS as readonly string[]).includes(c));

/** Every check, pending: the seal's two are kept only for a sealed entry's bundle (see runChecks). */
const allChecks = (): CheckState[] => CHECKS.map((c) => ({ id: c.id, state: "pending", detail: "" }));

/** What is shown while the checks run: the seal's two appear once the bundle says it is sealed. */
export const initialChecks = (): CheckState[] => allChecks().filter((c) => !SEAL_CHECKS.includes(c.id));

/** A step of the verification, in the page's words where they differ from the verifier's. */
function rowOf(id: CheckId, step: Step, v: Verification, log: LogInfo | null): CheckState {
  if (step.state === "fail") {
    const w = v.witnesses;
    if (step.code === "quorum_not_met" && w)
      return {
        id,
        state: "fail",
        detail: `Quorum not met: cosigned by ${cosigners(w) || "no witness"}, but the policy requires ${w.rule}.`,
      };
    if (id === "timestamp") return { id, state: "fail", detail: `The time-stamp does not verify: ${step.detail}.` };
    if (id === "page_match") return { id, state: "fail", detail: `${step.detail[0]!.toUpperCase()}${step.detail.slice(1)}.` };
    return { id, state: "fail", detail: step.detail };
  }
  if (step.state === "skipped") {
    if (step.why === "no_witnesses")
      return { id, state: "skipped", detail: "This log names no witnesses: its checkpoints are signed by the log alone." };
    if (step.why === "no_tsa") return notRun(id, v);
    const every = log?.timestamping?.interval_seconds;
    return { id, state: "skipped", detail: `Not yet time-stamped: the log asks its authority at most every ${every ?? "few"} seconds.` };
  }
  if (id === "witnesses" && v.witnesses)
    return { id, state: "pass", detail: `Cosigned by ${cosigners(v.witnesses)}; the policy's quorum (${v.witnesses.rule}) is met.` };
  if (id === "timestamp" && v.timestamp) {
    const at = v.timestamp.existedBy.toISOString();
    return { id, state: "pass", detail: `existed no later than ${at.slice(11, 19)} UTC on ${at.slice(0, 10)}, per ${v.timestamp.tsa}` };
  }
  return { id, state: "pass", detail: step.detail };
}

const cosigners = (w: NonNullable<Verification["witnesses"]>) =>
  w.cosigners.map((c) => `${c.witness} (${c.keyName}) ${c.timestamp === 0 ? "with no time stated" : `at ${when(c.timestamp)}`}`).join(", ");

/** Rows for the checks that did not run: an earlier one failed, or (the time-stamp) the log names no authority. */
function notRun(id: CheckId, v: Verification): CheckState {
  if (id === "timestamp" && !v.failure)
    return { id, state: "skipped", detail: "This log names no time-stamping authority: its times are its own." };
  return { id, state: "skipped", detail: "Not checked: an earlier check failed." };
}

export async function runChecks(expected: Expected): Promise<Outcome & { phase: "done" | "waiting" }> {
  let log: LogInfo | null = null;
  let bundleText: string | null = null;
  const pinnedPolicy = readPinnedPolicy();
  let policyText = pinnedPolicy ?? "";
  const failAll = (reason: string) => ({
    phase: "done" as const,
    ok: false,
    reason,
    checks: initialChecks().map((c) => ({ ...c, state: "skipped" as const, detail: "Not checked: the proof could not be loaded." })),
    bundleText,
    log,
    unwitnessed: false,
    pinned: pinnedPolicy !== null,
  });
  try {
    const [bundleRes, logRes, policyRes] = await Promise.allSettled([
      fetchText(`/v1/protections/${encodeURIComponent(expected.protectionId)}/proof-bundle`, "proof bundle"),
      fetchText("/v1/log", "log key").then((t) => JSON.parse(t) as LogInfo),
      pinnedPolicy ?? fetchText("/v1/log/policy", "witness policy"),
    ]);
    if (logRes.status === "fulfilled") log = logRes.value;
    if (bundleRes.status === "fulfilled") bundleText = bundleRes.value;
    if (bundleRes.status === "rejected" && bundleRes.reason instanceof DownloadFailed && bundleRes.reason.code === "not_yet_witnessed")
      return { phase: "waiting", retryAfter: bundleRes.reason.retryAfter ?? 2 };
    if (bundleRes.status === "rejected") return failAll(`The browser ${(bundleRes.reason as Error).message}.`);
    if (logRes.status === "rejected") return failAll(`The browser ${(logRes.reason as Error).message}.`);
    if (policyRes.status === "rejected") return failAll(`The browser ${(policyRes.reason as Error).message}.`);
    policyText = policyRes.value;
  } catch (e) {
    return failAll(`The proof could not be loaded: ${(e as Error).message}.`);
  }
  let bundle: unknown;
  try {
    bundle = parseJson(bundleText!);
  } catch {
    bundle = bundleText; // the verifier reports it as malformed
  }
  const logKey = logKeyFor(bundle, log);
  if (!logKey) return failAll("The log did not publish a public key.");
  let policy: Policy | undefined;
  let policyError: string | null = null;
  try {
    policy = parsePolicy(policyText);
  } catch (e) {
    policyError = `The witness policy is not valid: ${(e as Error).message}.`;
  }
  const v = await verify(
    { kind: "bundle", bundle, page: expected },
    { logPublicKey: logKey, policy, tsaPem: log?.timestamping?.certificate_pem ?? undefined },
  );
  const ran = new Map(v.steps.map((s) => [s.name, s]));
  const out: CheckState[] = allChecks().map((c) => {
    const step = ran.get(c.id);
    return step ? rowOf(c.id, step, v, log) : notRun(c.id, v);
  });
  // A bundle that fails before any check runs (malformed, wrong log key) fails the first one.
  const unread = ran.get("evidence");
  if (unread?.state === "fail") out[0] = { id: out[0]!.id, state: "fail", detail: unread.detail };
  if (policyError && v.entry && !v.failure)
    out[out.findIndex((o) => o.id === "witnesses")] = { id: "witnesses", state: "fail", detail: policyError };
  const firstFailure = out.find((c) => c.state === "fail");
  return {
    phase: "done",
    ok: firstFailure === undefined && v.ok,
    reason: firstFailure?.detail ?? (v.failure ? v.failure.reason : null),
    // A bundle of an entry logged in the open has no seal to check: its two rows are not shown.
    checks: v.sealed ? out : out.filter((c) => !SEAL_CHECKS.includes(c.id)),
    bundleText,
    log,
    unwitnessed: v.failure?.code === "quorum_not_met",
    pinned: pinnedPolicy !== null,
  };
}
