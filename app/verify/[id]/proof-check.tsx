"use client";
// The proof check that runs in the visitor's browser (proof-checks.ts, driven by
// use-proof-check.ts): its verdict, its rows, the files behind it and the visitor's own policy.
import { Spinner } from "../../_components/ui";
import { PolicyPin } from "./policy-pin";
import { ProofCheckRows } from "./proof-check-rows";
import { initialChecks, type Outcome } from "./proof-checks";
import { ProofDownloads } from "./proof-downloads";
import { useProofCheck } from "./use-proof-check";

export function ProofCheck({
  protectionId,
  contentHash,
  attestationId,
}: {
  protectionId: string;
  contentHash: string;
  attestationId: string;
}) {
  const { outcome, rerun } = useProofCheck({ protectionId, contentHash, attestationId });
  const done = outcome.phase === "done" ? outcome : null;
  return (
    <div>
      <Verdict outcome={outcome} />
      <ProofCheckRows checks={done ? done.checks : initialChecks()} />
      <div className="mt-6 space-y-3 text-sm text-stone-700">
        <ProofDownloads
          protectionId={protectionId}
          log={done ? done.log : null}
          bundleText={done ? done.bundleText : null}
          loading={outcome.phase === "running"}
        />
        <PolicyPin pinned={outcome.phase === "done" && outcome.pinned} onChange={rerun} />
      </div>
    </div>
  );
}

function Verdict({ outcome }: { outcome: Outcome }) {
  if (outcome.phase === "running") return <Spinner label="Checking the proof in your browser…" />;
  if (outcome.phase === "waiting")
    return (
      <div role="status" className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
        <p className="flex items-center gap-3 font-semibold">
          <span aria-hidden className="h-5 w-5 animate-spin rounded-full border-2 border-amber-300 border-t-amber-700" />
          Waiting for witnesses…
        </p>
        <p className="mt-1 text-sm">
          This protection is in the log; the independent witnesses that vouch for the log have not cosigned it yet. This usually takes a few
          seconds, and the check runs here again as soon as they have.
        </p>
      </div>
    );
  if (outcome.ok)
    return (
      <div role="status" className="flex items-start gap-3 rounded-xl border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-950">
        <span aria-hidden className="mt-0.5 grid h-7 w-7 shrink-0 place-items-center rounded-full bg-emerald-700 font-bold text-white">
          ✓
        </span>
        <div>
          <p className="text-lg font-semibold">Proof verified in your browser</p>
          <p className="text-sm">Every check passed on your device, using the log key and witness policy shown below.</p>
        </div>
      </div>
    );
  return (
    <div role="alert" className="flex items-start gap-3 rounded-xl border border-red-300 bg-red-50 px-4 py-3 text-red-900">
      <span aria-hidden className="mt-0.5 grid h-7 w-7 shrink-0 place-items-center rounded-full bg-red-700 font-bold text-white">
        !
      </span>
      <div className="min-w-0">
        <p className="text-lg font-semibold">Verification failed</p>
        <p className="break-words text-sm">{outcome.reason}</p>
      </div>
    </div>
  );
}
