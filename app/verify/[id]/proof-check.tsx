"use client";
// The proof check that runs in the visitor's browser: it downloads the proof bundle and the
// log's key from the server like any other client would, then verifies them with lib/verify
// locally. Nothing here trusts the page's own rendering of the facts: the fifth check ties the
// bundle to the protection this page is about.
import { useEffect, useState } from "react";
import {
  BUNDLE_CHECKS,
  parsePolicy,
  parseVerifierKey,
  SEALED_CHECKS,
  verify,
  type Check,
  type Policy,
  type Step,
  type Verification,
} from "@/lib/verify";
import { bytesToHex } from "@/lib/verify/encoding";
import { parseJson } from "@/lib/verify/json-parse";
import { logKeyForOrigin } from "@/lib/verify/log-key";
import { Mono, Spinner, cx } from "../../_components/ui";
import { PINNED_POLICY, readPinnedPolicy } from "../../_components/pinned-policy";

type CheckId = Check["name"] | "page_match" | "witnesses" | "timestamp";
type CheckState = { id: CheckId; state: "pending" | "pass" | "fail" | "skipped"; detail: string };

const CHECKS: Array<{ id: CheckId; label: string; explains: string }> = [
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

/** How many times the page asks again while the witnesses have not cosigned (about 7 s each: the server waits 5). */
const WAIT_TRIES = 40;
const stillUnwitnessed = () => ({
  ok: false,
  reason:
    "The log's witnesses have not cosigned this entry's checkpoint yet, so its proof cannot be checked against the log's policy. Try again later.",
  checks: initialChecks().map((c) => ({ ...c, state: "skipped" as const, detail: "Not checked: the witnesses have not cosigned yet." })),
  bundleText: null,
  log: null,
  unwitnessed: true,
  pinned: false,
});

interface LogInfo {
  origin?: string;
  public_key?: string;
  key_id?: string;
  verifier_key?: string;
  /** Every log of the chain a key rotation made; an entry is in the one its checkpoint's origin names. */
  shards?: { origin?: string; verifier_key?: string }[];
  timestamping?: { certificate_pem?: string; interval_seconds?: number } | null;
}

/** The key of the log (shard) that holds the bundle's entry: the one its checkpoint's origin names, else the current one. */
const logKeyFor = (bundle: unknown, log: LogInfo | null) =>
  logKeyForOrigin(log, (bundle as { signed_tree_head?: { origin?: unknown } } | null)?.signed_tree_head?.origin);

type Outcome =
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

const when = (t: number) => {
  const iso = new Date(t * 1000).toISOString();
  return `${iso.slice(11, 19)} UTC on ${iso.slice(0, 10)}`;
};

/** The checks only a sealed entry's bundle runs. */
const SEAL_CHECKS: CheckId[] = SEALED_CHECKS.filter((c) => !(BUNDLE_CHECKS as readonly string[]).includes(c));

/** Every check, pending: the seal's two are kept only for a sealed entry's bundle (see runChecks). */
const allChecks = (): CheckState[] => CHECKS.map((c) => ({ id: c.id, state: "pending", detail: "" }));

/** What is shown while the checks run: the seal's two appear once the bundle says it is sealed. */
const initialChecks = (): CheckState[] => allChecks().filter((c) => !SEAL_CHECKS.includes(c.id));

/** A download that failed: its problem code, and Retry-After in seconds, when the answer had them. */
class DownloadFailed extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

async function fetchText(url: string, what: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { cache: "no-store", headers: { accept: "application/json" } });
  } catch {
    throw new DownloadFailed(`could not download the ${what} (network error)`);
  }
  if (!res.ok) {
    const code = await res
      .json()
      .then((p: { code?: unknown }) => (typeof p.code === "string" ? p.code : null))
      .catch(() => null);
    const retryAfter = Number(res.headers.get("retry-after"));
    throw new DownloadFailed(`could not download the ${what} (HTTP ${res.status})`, code, Number.isFinite(retryAfter) ? retryAfter : null);
  }
  return res.text();
}

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
  w.cosigners.map((c) => `${c.witness} (${c.keyName}) at ${when(c.timestamp)}`).join(", ");

/** Rows for the checks that did not run: an earlier one failed, or (the time-stamp) the log names no authority. */
function notRun(id: CheckId, v: Verification): CheckState {
  if (id === "timestamp" && !v.failure)
    return { id, state: "skipped", detail: "This log names no time-stamping authority: its times are its own." };
  return { id, state: "skipped", detail: "Not checked: an earlier check failed." };
}

async function runChecks(expected: {
  protectionId: string;
  contentHash: string;
  attestationId: string;
}): Promise<Outcome & { phase: "done" | "waiting" }> {
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

function keyIdentity(log: LogInfo | null): { origin: string; keyId: string } | null {
  if (!log?.verifier_key) return null;
  try {
    const v = parseVerifierKey(log.verifier_key.trim());
    return { origin: v.name, keyId: bytesToHex(v.keyId) };
  } catch {
    return null;
  }
}

function StatusIcon({ state }: { state: CheckState["state"] }) {
  const base = "grid h-6 w-6 shrink-0 place-items-center rounded-full text-sm font-bold";
  if (state === "pass")
    return (
      <span aria-hidden className={cx(base, "bg-emerald-700 text-white")}>
        ✓
      </span>
    );
  if (state === "fail")
    return (
      <span aria-hidden className={cx(base, "bg-red-700 text-white")}>
        ✕
      </span>
    );
  if (state === "skipped")
    return (
      <span aria-hidden className={cx(base, "bg-stone-200 text-stone-700")}>
        –
      </span>
    );
  return <span aria-hidden className={cx(base, "animate-pulse bg-stone-200")} />;
}

const STATE_TEXT = { pending: "Checking…", pass: "Passed", fail: "Failed", skipped: "Not checked" } as const;

function useObjectUrl(text: string | null, type: string): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (text === null) return;
    const u = URL.createObjectURL(new Blob([text], { type }));
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [text, type]);
  return url;
}

export function ProofCheck({
  protectionId,
  contentHash,
  attestationId,
}: {
  protectionId: string;
  contentHash: string;
  attestationId: string;
}) {
  const [outcome, setOutcome] = useState<Outcome>({ phase: "running" });
  const [run, setRun] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `run` is the retry button's trigger: a new value runs the check again.
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A protection made a moment ago is in the log before witnesses cosign it (about a second):
    // the server holds the proof back until they have (not_yet_witnessed), and the page says it
    // is waiting for them and checks again, in place, until they have (at most WAIT_TRIES times).
    const attempt = (left: number) =>
      runChecks({ protectionId, contentHash, attestationId }).then((o) => {
        if (!live) return;
        if (o.phase === "waiting" && left > 0) {
          setOutcome(o);
          timer = setTimeout(() => void attempt(left - 1), o.retryAfter * 1000);
        } else if (o.phase === "waiting") {
          setOutcome({ phase: "done", ...stillUnwitnessed() });
        } else setOutcome(o);
      });
    setOutcome({ phase: "running" });
    void attempt(WAIT_TRIES);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [protectionId, contentHash, attestationId, run]);

  const checks = outcome.phase === "done" ? outcome.checks : initialChecks();
  const log = outcome.phase === "done" ? outcome.log : null;
  const identity = keyIdentity(log);
  const bundleUrl = useObjectUrl(outcome.phase === "done" ? outcome.bundleText : null, "application/json");
  const logPemUrl = useObjectUrl(log?.public_key ?? null, "application/x-pem-file");

  return (
    <div>
      {outcome.phase === "running" ? (
        <Spinner label="Checking the proof in your browser…" />
      ) : outcome.phase === "waiting" ? (
        <div role="status" className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
          <p className="flex items-center gap-3 font-semibold">
            <span aria-hidden className="h-5 w-5 animate-spin rounded-full border-2 border-amber-300 border-t-amber-700" />
            Waiting for witnesses…
          </p>
          <p className="mt-1 text-sm">
            This protection is in the log; the independent witnesses that vouch for the log have not cosigned it yet. This usually takes a
            few seconds, and the check runs here again as soon as they have.
          </p>
        </div>
      ) : outcome.ok ? (
        <div role="status" className="flex items-start gap-3 rounded-xl border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-950">
          <span aria-hidden className="mt-0.5 grid h-7 w-7 shrink-0 place-items-center rounded-full bg-emerald-700 font-bold text-white">
            ✓
          </span>
          <div>
            <p className="text-lg font-semibold">Proof verified in your browser</p>
            <p className="text-sm">Every check passed on your device, using the log key and witness policy shown below.</p>
          </div>
        </div>
      ) : (
        <div role="alert" className="flex items-start gap-3 rounded-xl border border-red-300 bg-red-50 px-4 py-3 text-red-900">
          <span aria-hidden className="mt-0.5 grid h-7 w-7 shrink-0 place-items-center rounded-full bg-red-700 font-bold text-white">
            !
          </span>
          <div className="min-w-0">
            <p className="text-lg font-semibold">Verification failed</p>
            <p className="break-words text-sm">{outcome.reason}</p>
          </div>
        </div>
      )}

      <ol role="list" aria-label="Proof checks" className="mt-5 space-y-3">
        {checks.map((s) => {
          const c = CHECKS.find((x) => x.id === s.id)!;
          return (
            <li
              key={c.id}
              data-check={c.id}
              data-state={s.state}
              className={cx(
                "flex gap-3 rounded-xl border px-4 py-3",
                s.state === "pass" && "border-emerald-200 bg-white",
                s.state === "fail" && "border-red-300 bg-red-50",
                (s.state === "pending" || s.state === "skipped") && "border-stone-200 bg-stone-50",
              )}
            >
              <StatusIcon state={s.state} />
              <div className="min-w-0 flex-1">
                <p className="flex flex-wrap items-baseline justify-between gap-x-3">
                  <span className="font-medium">{c.label}</span>
                  <span
                    className={cx(
                      "text-sm font-semibold",
                      s.state === "pass" ? "text-emerald-800" : s.state === "fail" ? "text-red-800" : "text-stone-600",
                    )}
                  >
                    {STATE_TEXT[s.state]}
                  </span>
                </p>
                <p className={cx("mt-0.5 text-sm wrap-anywhere", s.state === "fail" ? "text-red-900" : "text-stone-700")}>
                  {s.detail || c.explains}
                </p>
              </div>
            </li>
          );
        })}
      </ol>

      <div className="mt-6 space-y-3 text-sm text-stone-700">
        <p>
          <span className="font-medium text-stone-900">Log key used: </span>
          {identity ? (
            <>
              origin <Mono className="text-stone-900">{identity.origin}</Mono>, key ID{" "}
              <Mono className="text-stone-900">{identity.keyId}</Mono>
            </>
          ) : outcome.phase === "running" ? (
            "loading…"
          ) : (
            "unavailable"
          )}
        </p>
        <p>
          These checks ran on your device with open code, not on our server. They prove the attestation is in the log that this key signs;
          to rule out a forged log, compare the key above with the one the operator publishes at{" "}
          <a className="font-medium text-teal-800 underline underline-offset-2" href="/v1/log">
            /v1/log
          </a>
          .
        </p>
        <div className="flex flex-wrap gap-2 pt-1">
          {bundleUrl ? (
            <a
              href={bundleUrl}
              download={`hallmark-proof-${protectionId}.json`}
              className="inline-flex items-center rounded-lg bg-teal-800 px-4 py-2 text-sm font-medium text-white hover:bg-teal-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
            >
              Download proof bundle
            </a>
          ) : null}
          <a
            href={`/v1/protections/${encodeURIComponent(protectionId)}/certificate.pdf`}
            download={`hallmark-certificate-${protectionId}.pdf`}
            className="inline-flex items-center rounded-lg border border-stone-300 bg-white px-4 py-2 text-sm font-medium text-stone-900 hover:bg-stone-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
          >
            Download certificate (PDF)
          </a>
          <a
            href={`/v1/protections/${encodeURIComponent(protectionId)}/tlog-proof`}
            download={`${protectionId}.tlog-proof`}
            className="inline-flex items-center rounded-lg border border-stone-300 bg-white px-4 py-2 text-sm font-medium text-stone-900 hover:bg-stone-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
          >
            Download .tlog-proof
          </a>
          <a
            href="/v1/log/policy"
            download="policy.txt"
            className="inline-flex items-center rounded-lg border border-stone-300 bg-white px-4 py-2 text-sm font-medium text-stone-900 hover:bg-stone-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
          >
            Download policy
          </a>
          {logPemUrl ? (
            <a
              href={logPemUrl}
              download="log.pem"
              className="inline-flex items-center rounded-lg border border-stone-300 bg-white px-4 py-2 text-sm font-medium text-stone-900 hover:bg-stone-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
            >
              Download log key
            </a>
          ) : null}
        </div>
        <p>
          Verify offline:{" "}
          <Mono className="rounded bg-stone-100 px-1.5 py-0.5 text-stone-900">npm run verify -- bundle.json --log-key log.pem</Mono>, or
          with the portable proof and the policy:{" "}
          <Mono className="rounded bg-stone-100 px-1.5 py-0.5 text-stone-900">npm run verify -- proof.tlog-proof --policy policy.txt</Mono>
        </p>
        <PolicyPin pinned={outcome.phase === "done" && outcome.pinned} onChange={() => setRun((n) => n + 1)} />
      </div>
    </div>
  );
}

/**
 * A visitor may pin their own witness policy (C2SP tlog-policy), kept in this browser: then the
 * witness check no longer depends on the policy this server publishes.
 */
function PolicyPin({ pinned, onChange }: { pinned: boolean; onChange: () => void }) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  function save() {
    try {
      parsePolicy(text);
    } catch (e) {
      setError((e as Error).message);
      return;
    }
    window.localStorage.setItem(PINNED_POLICY, text);
    setError(null);
    onChange();
  }
  return (
    <details className="rounded-lg border border-stone-200 bg-white px-3 py-2">
      <summary className="cursor-pointer font-medium text-stone-900">
        Witness policy: {pinned ? "your own, pinned in this browser" : "the one this log publishes at /v1/log/policy"}
      </summary>
      <div className="mt-2 space-y-2">
        <label htmlFor="pinned-policy" className="block text-stone-800">
          Paste a policy you trust (for example from the witnesses' operators) to check every proof against it instead.
        </label>
        <textarea
          id="pinned-policy"
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={4}
          className="w-full rounded-md border border-stone-300 p-2 font-mono text-xs text-stone-900"
          aria-describedby={error ? "pinned-policy-error" : undefined}
        />
        {error ? (
          <p id="pinned-policy-error" role="alert" className="text-red-800">
            {error}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <button type="button" onClick={save} className="rounded-lg bg-teal-800 px-3 py-1.5 font-medium text-white hover:bg-teal-900">
            Pin this policy
          </button>
          {pinned ? (
            <button
              type="button"
              onClick={() => {
                window.localStorage.removeItem(PINNED_POLICY);
                onChange();
              }}
              className="rounded-lg border border-stone-300 px-3 py-1.5 font-medium text-stone-900 hover:bg-stone-100"
            >
              Use the log's policy again
            </button>
          ) : null}
        </div>
      </div>
    </details>
  );
}
