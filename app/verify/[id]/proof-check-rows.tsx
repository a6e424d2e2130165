// The proof check's rows: one per check, its state as an icon and in words, its detail or what it
// establishes. `data-check` and `data-state` are what the browser suite reads.
import { cx } from "../../_components/ui";
import { CHECKS, type CheckState } from "./proof-checks";

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

export function ProofCheckRows({ checks }: { checks: CheckState[] }) {
  return (
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
  );
}
