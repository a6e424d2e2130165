"use client";
// A proof file the visitor holds, checked in their browser with lib/verify's `verify`, as the
// CLI does: the log's key and policy come from this log (GET /v1/log, /v1/log/policy), or the
// policy the visitor pinned on a verify page. A sealed leaf alone (anyone can take one from
// the log's tiles) is said to be a sealed entry whose content is its owner's: nothing in it
// names what it seals.
import { useRef, useState } from "react";
import { parsePolicy, type Policy, type Step, type Verification, verify } from "@/lib/verify";
import { MAX_BUNDLE_BYTES } from "@/lib/verify/bundle-shape";
import { logKeyForOrigin } from "@/lib/verify/log-key";
import { MAX_TLOG_PROOF_BYTES, TLOG_PROOF_HEADER } from "@/lib/verify/tlog-proof";
import { errorInfo, failureOfResponse, fetchOrFail } from "@/lib/request-failure";
import { FileDropZone } from "../_components/file-drop";
import { checkLabel } from "../_components/verification-checks";
import { Mono, cx } from "../_components/ui";
import { readPinnedPolicy } from "../_components/pinned-policy";

type Outcome =
  | { phase: "none" }
  | { phase: "checking"; name: string }
  | { phase: "done"; name: string; v: Verification }
  | { phase: "failed"; name: string; message: string };

async function getText(url: string): Promise<string> {
  const res = await fetchOrFail(url, { cache: "no-store" });
  if (!res.ok) throw await failureOfResponse(res);
  return res.text();
}

/** The checkpoint origin a proof names: a bundle's signed tree head, or a tlog-proof's note's first line. */
function originOf(text: string, isTlogProof: boolean): unknown {
  if (isTlogProof) return text.split("\n\n")[1]?.split("\n")[0];
  try {
    return (JSON.parse(text) as { signed_tree_head?: { origin?: unknown } } | null)?.signed_tree_head?.origin;
  } catch {
    return undefined;
  }
}

async function check(file: File): Promise<Verification> {
  const isTlogProof =
    new TextDecoder().decode(await file.slice(0, TLOG_PROOF_HEADER.length + 1).arrayBuffer()) === `${TLOG_PROOF_HEADER}\n`;
  const max = isTlogProof ? MAX_TLOG_PROOF_BYTES : MAX_BUNDLE_BYTES;
  if (file.size > max) throw new Error(`The file is larger than ${max.toLocaleString("en")} bytes: it is not a Hallmark proof.`);
  const text = await file.text();
  const pinned = readPinnedPolicy();
  const [log, policyText] = await Promise.all([getText("/v1/log").then((t) => JSON.parse(t)), pinned ?? getText("/v1/log/policy")]);
  let policy: Policy | undefined;
  try {
    policy = parsePolicy(policyText);
  } catch {
    policy = undefined; // checked under the log's key alone
  }
  const logPublicKey = logKeyForOrigin(log, originOf(text, isTlogProof));
  return verify(isTlogProof ? { kind: "tlog-proof", text } : { kind: "bundle", bundle: text }, { logPublicKey, policy });
}

/** The answer in one sentence. */
function summaryOf(v: Verification): string {
  if (!v.ok) return `The proof does not verify: ${v.failure?.reason ?? "it could not be read"}.`;
  const at = v.entry ?? (v.tlogProof ? { logIndex: v.tlogProof.index, treeSize: v.tlogProof.treeSize } : null);
  const where = at ? `entry ${at.logIndex.toLocaleString("en")} of the log's ${at.treeSize.toLocaleString("en")}` : "in the log";
  if (v.kind === "sealed")
    return `A sealed entry, ${where}: the log holds only a commitment to an attestation whose content is its owner's. Nothing in it says what it seals, or whose it is; only its owner's proof opens it.`;
  const a = v.tlogProof?.attestation;
  const hash = a && typeof a.payload.content_hash === "string" ? ` of ${a.payload.content_hash}` : "";
  return `A signed attestation${hash}, ${where}${v.kind === "opened" ? ", opened from its sealed entry by its owner's proof" : ""}.`;
}

const STATE = {
  pass: { word: "Passed", icon: "✓", tone: "bg-emerald-100 text-emerald-900" },
  fail: { word: "Failed", icon: "✕", tone: "bg-red-100 text-red-900" },
  skipped: { word: "Not checked", icon: "–", tone: "bg-stone-200 text-stone-700" },
} as const;

function Steps({ steps }: { steps: Step[] }) {
  return (
    <ol aria-label="Checks" className="mt-4 divide-y divide-stone-200 overflow-hidden rounded-2xl border border-stone-200 bg-white">
      {steps.map((s, i) => (
        <li key={`${s.name}-${i}`} className="flex gap-3 p-4" data-check={s.name}>
          <span
            aria-hidden
            className={cx("mt-0.5 grid h-6 w-6 shrink-0 place-items-center rounded-full text-xs font-bold", STATE[s.state].tone)}
          >
            {STATE[s.state].icon}
          </span>
          <div className="min-w-0 flex-1">
            <p className="font-medium text-stone-900">
              {checkLabel(s.name)}: <span className="font-normal">{STATE[s.state].word}</span>
            </p>
            <p className="mt-1 break-words text-sm text-stone-700">{s.detail}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}

export function ProofFileCheck() {
  const [outcome, setOutcome] = useState<Outcome>({ phase: "none" });
  const latest = useRef<File | null>(null);
  const onFile = (file: File | undefined) => {
    if (!file) return;
    latest.current = file;
    setOutcome({ phase: "checking", name: file.name });
    check(file).then(
      (v) => latest.current === file && setOutcome({ phase: "done", name: file.name, v }),
      (e: unknown) => latest.current === file && setOutcome({ phase: "failed", name: file.name, message: errorInfo(e).message }),
    );
  };
  return (
    <div>
      <FileDropZone
        label="Choose a proof file"
        hint="Drop a proof bundle (.json) or a .tlog-proof here, or click to choose one. It is checked here and never uploaded."
        onFile={onFile}
      />
      <div role="status" aria-live="polite" className="mt-4">
        {outcome.phase === "checking" ? (
          <p className="rounded-xl border border-stone-200 bg-white px-4 py-3 text-sm text-stone-800">Checking {outcome.name}…</p>
        ) : outcome.phase === "failed" ? (
          <p className="rounded-xl border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">{outcome.message}</p>
        ) : outcome.phase === "done" ? (
          <div
            className={cx(
              "rounded-xl border px-4 py-3",
              outcome.v.ok ? "border-emerald-300 bg-emerald-50 text-emerald-950" : "border-red-300 bg-red-50 text-red-950",
            )}
            data-testid="proof-summary"
          >
            <p className="font-semibold">{outcome.v.ok ? "The proof verifies" : "The proof does not verify"}</p>
            <p className="mt-1 text-sm">{summaryOf(outcome.v)}</p>
            <p className="mt-1 text-sm">
              <Mono>{outcome.name}</Mono>
            </p>
          </div>
        ) : null}
      </div>
      {outcome.phase === "done" ? <Steps steps={outcome.v.steps} /> : null}
    </div>
  );
}
