import { useState } from "react";
import { parsePolicy } from "@/lib/verify";
import { PINNED_POLICY } from "../../_components/pinned-policy";

/**
 * A visitor may pin their own witness policy (C2SP tlog-policy), kept in this browser: then the
 * witness check no longer depends on the policy this server publishes.
 */
export function PolicyPin({ pinned, onChange }: { pinned: boolean; onChange: () => void }) {
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
