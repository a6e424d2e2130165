// A pack's rules (server/domain/packs/pack-rules.ts, rule language version 1) as lines people read,
// in the order verification evaluates them.
import type { ReactNode } from "react";
import type { PackRules } from "@/server/domain/packs";
import { Mono } from "./ui";

const code = (v: string) => <Mono className="rounded bg-stone-100 px-1 py-0.5 text-stone-900">{v}</Mono>;

/** "a", "a or b", "a, b or c" (each as code unless asCode is false) */
function joined(values: readonly string[], last: string, asCode = true): ReactNode {
  return values.map((v, i) => (
    <span key={v}>
      {i > 0 ? (i === values.length - 1 ? last : ", ") : null}
      {asCode ? code(v) : v}
    </span>
  ));
}
const either = (values: readonly string[], asCode = true) => joined(values, " or ", asCode);

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);
const scalar = (v: string | number | boolean | null) => JSON.stringify(v);

/** One entry per rule present, each { name (the rule's key), text }. */
export function describeRules(rules: PackRules): { name: string; text: ReactNode }[] {
  const lines: { name: string; text: ReactNode }[] = [];
  if (rules.required_fields) {
    const f = rules.required_fields;
    lines.push({
      name: "required_fields",
      text: (
        <>
          {plural(f.length, "Payload field", "Payload fields")} {joined(f, " and ")} required
        </>
      ),
    });
  }
  if (rules.field_equals) {
    for (const e of rules.field_equals) {
      lines.push({
        name: "field_equals",
        text: (
          <>
            Payload field {code(e.field)} equals {code(scalar(e.value))}
          </>
        ),
      });
    }
  }
  if (rules.allowed_payload_types) {
    lines.push({ name: "allowed_payload_types", text: <>Payload type is {either(rules.allowed_payload_types)}</> });
  }
  if (rules.allowed_categories) {
    lines.push({ name: "allowed_categories", text: <>Category is {either(rules.allowed_categories)}</> });
  }
  if (rules.min_trust_level) {
    lines.push({ name: "min_trust_level", text: <>Issuer trust level at least {rules.min_trust_level}</> });
  }
  if (rules.allowed_issuer_statuses) {
    lines.push({ name: "allowed_issuer_statuses", text: <>Issuer status is {either(rules.allowed_issuer_statuses, false)}</> });
  }
  if (rules.allowed_key_algorithms) {
    lines.push({ name: "allowed_key_algorithms", text: <>Signing key algorithm is {either(rules.allowed_key_algorithms, false)}</> });
  }
  if (rules.max_age_days !== undefined) {
    const d = rules.max_age_days;
    lines.push({
      name: "max_age_days",
      text: (
        <>
          Attested at most {d.toLocaleString("en-US")} {plural(d, "day", "days")} ago
        </>
      ),
    });
  }
  if (rules.required_visibility) {
    lines.push({
      name: "required_visibility",
      text: (
        <>
          A creator&rsquo;s protection must be {rules.required_visibility} (not applicable to organisation attestations; another
          creator&rsquo;s private protection, and a sealed entry without its opening, do not pass)
        </>
      ),
    });
  }
  if (rules.require_content_hash_match !== undefined) {
    lines.push({
      name: "require_content_hash_match",
      text: rules.require_content_hash_match ? (
        <>The SHA-256 of the file at hand must be sent and equal the attested {code("content_hash")}</>
      ) : (
        <>The file&rsquo;s hash is compared only when one is sent</>
      ),
    });
  }
  return lines;
}

/** The rules as a list, after the cryptographic checks every verification runs. */
export function PackRuleList({ rules }: { rules: PackRules }) {
  const lines = describeRules(rules);
  return (
    <ol className="space-y-2 text-sm text-stone-800" aria-label="Rules">
      <li className="flex gap-3">
        <span aria-hidden className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-stone-400" />
        <span>
          Always: the log&rsquo;s checkpoint signature, inclusion in the log, the attestation&rsquo;s signature and its key&rsquo;s validity
        </span>
      </li>
      {lines.length === 0 ? (
        <li className="flex gap-3">
          <span aria-hidden className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-stone-400" />
          <span>No further rules: only the cryptographic checks</span>
        </li>
      ) : (
        lines.map((l, i) => (
          <li key={`${l.name}-${i}`} className="flex gap-3" data-rule={l.name}>
            <span aria-hidden className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-teal-700" />
            <span className="min-w-0 break-words">{l.text}</span>
          </li>
        ))
      )}
    </ol>
  );
}
