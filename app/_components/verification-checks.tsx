// A verification's answer (POST /v1/verifications, verifications.run/get): the verdict and
// every check with pass or fail and its reason. Shared by the run page and a recorded one.
import type { ReactNode } from "react";
import { Badge, cx } from "./ui";

export interface VerificationCheck {
  name: string;
  result: "pass" | "fail";
  reason: string;
}

/** What each check establishes, in words (the name stays visible as the stable identifier). */
export const CHECK_LABELS: Record<string, string> = {
  checkpoint_signature: "Log checkpoint signed by this log",
  seal_opening: "Sealed entry opened by its salt",
  inclusion: "Included in the transparency log",
  seal_signature: "Sealed leaf signed by the sealing key",
  attestation_signature: "Attestation signature valid",
  key_validity: "Signing key valid at signing time",
  required_fields: "Required payload fields",
  field_equals: "Payload field values",
  allowed_payload_types: "Payload type allowed",
  allowed_categories: "Category allowed",
  min_trust_level: "Issuer trust level",
  allowed_issuer_statuses: "Issuer status allowed",
  allowed_key_algorithms: "Key algorithm allowed",
  max_age_days: "Age of the attestation",
  required_visibility: "Protection visibility",
  content_hash_match: "File matches the attested hash",
  sealed_entry: "A sealed entry: its content is its owner's",
  witnesses: "Cosigned by the policy's witnesses",
  timestamp: "Time-stamped by an independent authority",
  evidence: "The proof file could be read",
};

export const checkLabel = (name: string) => CHECK_LABELS[name] ?? name;

export function ResultBadge({ result }: { result: "pass" | "fail" }) {
  return result === "pass" ? <Badge tone="success">Pass</Badge> : <Badge tone="danger">Fail</Badge>;
}

/** The overall verdict, with a line of context. */
export function Verdict({ result, checks, children }: { result: "pass" | "fail"; checks: VerificationCheck[]; children?: ReactNode }) {
  const failed = checks.filter((c) => c.result === "fail").length;
  return (
    <div
      className={cx(
        "flex items-start gap-4 rounded-2xl border p-4 sm:p-5",
        result === "pass" ? "border-emerald-300 bg-emerald-50 text-emerald-950" : "border-red-300 bg-red-50 text-red-950",
      )}
      data-testid="verdict"
    >
      <span
        aria-hidden
        className={cx(
          "grid h-10 w-10 shrink-0 place-items-center rounded-full text-lg font-bold text-white",
          result === "pass" ? "bg-emerald-700" : "bg-red-700",
        )}
      >
        {result === "pass" ? "✓" : "✕"}
      </span>
      <div className="min-w-0">
        <p className="text-lg font-semibold">{result === "pass" ? "Verification passed" : "Verification failed"}</p>
        <p className="text-sm">
          {result === "pass"
            ? `All ${checks.length} checks passed.`
            : `${failed} of ${checks.length} ${checks.length === 1 ? "check" : "checks"} failed.`}
        </p>
        {children ? <div className="mt-1 text-sm">{children}</div> : null}
      </div>
    </div>
  );
}

/** Every check in order, each with pass/fail and its reason. */
export function CheckList({ checks, label = "Checks" }: { checks: VerificationCheck[]; label?: string }) {
  return (
    <ol aria-label={label} className="divide-y divide-stone-200 overflow-hidden rounded-2xl border border-stone-200 bg-white">
      {checks.map((c, i) => (
        <li key={`${c.name}-${i}`} className="flex gap-3 p-4" data-check={c.name}>
          <span
            aria-hidden
            className={cx(
              "mt-0.5 grid h-6 w-6 shrink-0 place-items-center rounded-full text-xs font-bold",
              c.result === "pass" ? "bg-emerald-100 text-emerald-900" : "bg-red-100 text-red-900",
            )}
          >
            {c.result === "pass" ? "✓" : "✕"}
          </span>
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="font-medium text-stone-900">{checkLabel(c.name)}</span>
              <ResultBadge result={c.result} />
              <code className="font-mono text-xs text-stone-600">{c.name}</code>
            </div>
            <p className="mt-1 break-words text-sm text-stone-700">{c.reason}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}
