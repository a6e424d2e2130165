"use client";
// The proof check that runs in the visitor's browser: it downloads the proof bundle and the
// log's key from the server like any other client would, then verifies them with lib/verify
// locally. Nothing here trusts the page's own rendering of the facts: the fifth check ties the
// bundle to the protection this page is about.
import { useEffect, useState } from "react";
import { bytesToHex, parseVerifierKey, verifyProofBundle, type Check } from "@/lib/verify";
import { Mono, Spinner, cx } from "../../_components/ui";

type CheckId = Check["name"] | "page_match";
type CheckState = { id: CheckId; state: "pending" | "pass" | "fail" | "skipped"; detail: string };

const CHECKS: Array<{ id: CheckId; label: string; explains: string }> = [
  { id: "checkpoint_signature", label: "Log checkpoint signature", explains: "The log's signed tree head verifies under the log key." },
  { id: "inclusion", label: "Included in the log", explains: "The attestation is a leaf of that signed tree." },
  { id: "attestation_signature", label: "Signature by the issuer's key", explains: "The issuer's Ed25519 key signed the attestation." },
  { id: "key_validity", label: "Key valid at signing time", explains: "The key was within its validity window when it signed." },
  { id: "page_match", label: "Bundle matches this page", explains: "The bundle is about this protection, this hash and this attestation." },
];

interface LogInfo {
  origin?: string;
  public_key?: string;
  key_id?: string;
  verifier_key?: string;
}

type Outcome =
  | { phase: "running" }
  | { phase: "done"; ok: boolean; reason: string | null; checks: CheckState[]; bundleText: string | null; log: LogInfo | null };

const initialChecks = (): CheckState[] => CHECKS.map((c) => ({ id: c.id, state: "pending", detail: "" }));

async function fetchText(url: string, what: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { cache: "no-store", headers: { accept: "application/json" } });
  } catch {
    throw new Error(`could not download the ${what} (network error)`);
  }
  if (!res.ok) throw new Error(`could not download the ${what} (HTTP ${res.status})`);
  return res.text();
}

/** The fifth check: a valid bundle of some other work must not pass as this one's. */
function matchPage(bundle: unknown, expected: { protectionId: string; contentHash: string; attestationId: string }): CheckState {
  const a = (bundle as { attestation?: { id?: unknown; payload?: Record<string, unknown> } } | null)?.attestation;
  const payload = a?.payload ?? {};
  const problems: string[] = [];
  if (payload.protection_id !== expected.protectionId) problems.push(`it is for protection ${String(payload.protection_id)}, not ${expected.protectionId}`);
  if (payload.content_hash !== `sha256:${expected.contentHash}`) problems.push(`its content hash is ${String(payload.content_hash)}, not sha256:${expected.contentHash}`);
  if (a?.id !== expected.attestationId) problems.push(`its attestation is ${String(a?.id)}, not ${expected.attestationId}`);
  return problems.length
    ? { id: "page_match", state: "fail", detail: `The bundle does not belong to this page: ${problems.join("; ")}.` }
    : { id: "page_match", state: "pass", detail: "protection ID, content hash and attestation ID are the ones shown on this page" };
}

async function runChecks(expected: { protectionId: string; contentHash: string; attestationId: string }): Promise<Outcome & { phase: "done" }> {
  const checks = initialChecks();
  let log: LogInfo | null = null;
  let bundleText: string | null = null;
  const failAll = (reason: string) => ({
    phase: "done" as const,
    ok: false,
    reason,
    checks: checks.map((c) => ({ ...c, state: "skipped" as const, detail: "Not checked: the proof could not be loaded." })),
    bundleText,
    log,
  });
  try {
    const [bundleRes, logRes] = await Promise.allSettled([
      fetchText(`/v1/protections/${encodeURIComponent(expected.protectionId)}/proof-bundle`, "proof bundle"),
      fetchText("/v1/log", "log key").then((t) => JSON.parse(t) as LogInfo),
    ]);
    if (logRes.status === "fulfilled") log = logRes.value;
    if (bundleRes.status === "fulfilled") bundleText = bundleRes.value;
    if (bundleRes.status === "rejected") return failAll(`The browser ${(bundleRes.reason as Error).message}.`);
    if (logRes.status === "rejected") return failAll(`The browser ${(logRes.reason as Error).message}.`);
  } catch (e) {
    return failAll(`The proof could not be loaded: ${(e as Error).message}.`);
  }
  const logKey = log?.verifier_key || log?.public_key;
  if (!logKey) return failAll("The log did not publish a public key.");

  let bundle: unknown;
  try {
    bundle = JSON.parse(bundleText!);
  } catch {
    bundle = bundleText; // verifyProofBundle reports it as malformed
  }
  const result = verifyProofBundle(bundle, { logPublicKey: logKey });
  const ran = new Map(result.checks.map((c) => [c.name as CheckId, c]));
  let reason: string | null = result.ok ? null : result.message;
  const out: CheckState[] = checks.map((c) => {
    if (c.id === "page_match") return c;
    const r = ran.get(c.id);
    if (r) return { id: c.id, state: r.ok ? "pass" : "fail", detail: r.detail };
    return { id: c.id, state: "skipped", detail: "Not checked: an earlier check failed." };
  });
  // A bundle that fails before any check runs (malformed, wrong log key) fails the first one.
  if (!result.ok && result.checks.length === 0) out[0] = { id: out[0]!.id, state: "fail", detail: result.message };
  const match = typeof bundle === "object" && bundle !== null ? matchPage(bundle, expected) : { id: "page_match" as const, state: "skipped" as const, detail: "Not checked: the bundle is not readable." };
  out[4] = match;
  if (match.state === "fail") reason ??= match.detail;
  return { phase: "done", ok: result.ok && match.state === "pass", reason, checks: out, bundleText, log };
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
  if (state === "pass") return <span aria-hidden className={cx(base, "bg-emerald-700 text-white")}>✓</span>;
  if (state === "fail") return <span aria-hidden className={cx(base, "bg-red-700 text-white")}>✕</span>;
  if (state === "skipped") return <span aria-hidden className={cx(base, "bg-stone-200 text-stone-700")}>–</span>;
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

export function ProofCheck({ protectionId, contentHash, attestationId }: { protectionId: string; contentHash: string; attestationId: string }) {
  const [outcome, setOutcome] = useState<Outcome>({ phase: "running" });
  useEffect(() => {
    let live = true;
    runChecks({ protectionId, contentHash, attestationId }).then((o) => live && setOutcome(o));
    return () => {
      live = false;
    };
  }, [protectionId, contentHash, attestationId]);

  const checks = outcome.phase === "done" ? outcome.checks : initialChecks();
  const log = outcome.phase === "done" ? outcome.log : null;
  const identity = keyIdentity(log);
  const bundleUrl = useObjectUrl(outcome.phase === "done" ? outcome.bundleText : null, "application/json");
  const logPemUrl = useObjectUrl(log?.public_key ?? null, "application/x-pem-file");

  return (
    <div>
      {outcome.phase === "running" ? (
        <Spinner label="Checking the proof in your browser…" />
      ) : outcome.ok ? (
        <div role="status" className="flex items-start gap-3 rounded-xl border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-950">
          <span aria-hidden className="mt-0.5 grid h-7 w-7 shrink-0 place-items-center rounded-full bg-emerald-700 font-bold text-white">✓</span>
          <div>
            <p className="text-lg font-semibold">Proof verified in your browser</p>
            <p className="text-sm">All five checks passed on your device, using the log key shown below.</p>
          </div>
        </div>
      ) : (
        <div role="alert" className="flex items-start gap-3 rounded-xl border border-red-300 bg-red-50 px-4 py-3 text-red-900">
          <span aria-hidden className="mt-0.5 grid h-7 w-7 shrink-0 place-items-center rounded-full bg-red-700 font-bold text-white">!</span>
          <div className="min-w-0">
            <p className="text-lg font-semibold">Verification failed</p>
            <p className="break-words text-sm">{outcome.reason}</p>
          </div>
        </div>
      )}

      <ol role="list" aria-label="Proof checks" className="mt-5 space-y-3">
        {CHECKS.map((c, i) => {
          const s = checks[i]!;
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
                  <span className={cx("text-sm font-semibold", s.state === "pass" ? "text-emerald-800" : s.state === "fail" ? "text-red-800" : "text-stone-600")}>
                    {STATE_TEXT[s.state]}
                  </span>
                </p>
                <p className={cx("mt-0.5 text-sm wrap-anywhere", s.state === "fail" ? "text-red-900" : "text-stone-700")}>{s.detail || c.explains}</p>
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
              origin <Mono className="text-stone-900">{identity.origin}</Mono>, key ID <Mono className="text-stone-900">{identity.keyId}</Mono>
            </>
          ) : outcome.phase === "running" ? (
            "loading…"
          ) : (
            "unavailable"
          )}
        </p>
        <p>
          These checks ran on your device with open code, not on our server. They prove the attestation is in the log that
          this key signs; to rule out a forged log, compare the key above with the one the operator publishes at{" "}
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
          Verify offline: <Mono className="rounded bg-stone-100 px-1.5 py-0.5 text-stone-900">npm run verify -- bundle.json --log-key log.pem</Mono>
        </p>
      </div>
    </div>
  );
}
