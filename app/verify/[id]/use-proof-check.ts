// Drives the proof check (proof-checks.ts) for the page: runs it on mount and whenever the
// protection or `rerun` asks, and waits in place while the witnesses have not cosigned.
import { useEffect, useState } from "react";
import { type Expected, type Outcome, runChecks, stillUnwitnessed, WAIT_TRIES } from "./proof-checks";

export function useProofCheck({ protectionId, contentHash, attestationId }: Expected): { outcome: Outcome; rerun: () => void } {
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
  return { outcome, rerun: () => setRun((n) => n + 1) };
}
