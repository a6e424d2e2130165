"use client";
// Create or edit a custom verification pack: name, description, category, region and the
// rules as JSON (the rule language of server/domain/packs/pack-rules.ts). The server validates;
// its field errors show at their fields, and the rules' problems with their JSON pointers.
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import type { PackRules } from "@/server/domain/packs";
import { fieldErrorsOf, useFieldErrors } from "./field-errors";
import { Alert, Button, Field, Input, Mono, Textarea } from "./ui";
import { useTRPC } from "../_trpc/client";

export interface PackFormValues {
  name: string;
  description: string;
  category: string;
  region: string;
  rules: PackRules;
}

const EXAMPLE_RULES: PackRules = { required_fields: ["content_hash"], allowed_issuer_statuses: ["ACTIVE"], max_age_days: 30 };

/** The server's problems inside the rules, each with its JSON pointer (e.g. /rules/max_age_days). */
function rulePointersOf(err: unknown): { pointer: string; detail: string }[] {
  const data = (err as { data?: { fieldPointers?: { pointer: string; detail: string }[] | null } } | null)?.data;
  return (data?.fieldPointers ?? []).filter((p) => p.pointer === "/rules" || p.pointer.startsWith("/rules/"));
}

export function PackForm({
  mode,
  packId,
  initial,
  cancelHref,
}: {
  mode: "create" | "edit";
  packId?: string;
  initial?: PackFormValues;
  cancelHref: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const formId = useId();
  const [name, setName] = useState(initial?.name ?? "");
  const [description, setDescription] = useState(initial?.description ?? "");
  const [category, setCategory] = useState(initial?.category ?? "custom");
  const [region, setRegion] = useState(initial?.region ?? "Global");
  const [rules, setRules] = useState(JSON.stringify(initial?.rules ?? EXAMPLE_RULES, null, 2));
  const [pointers, setPointers] = useState<{ pointer: string; detail: string }[]>([]);
  const { errors, check, generalError, describe } = useFieldErrors(formId);
  const create = useMutation(trpc.packs.create.mutationOptions());
  const update = useMutation(trpc.packs.update.mutationOptions());
  const mutation = mode === "create" ? create : update;
  const busy = mutation.isPending || mutation.isSuccess;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setPointers([]);
    const found: Record<string, string> = {};
    if (!name.trim()) found.name = "Give the pack a name, e.g. the policy it stands for.";
    let parsed: unknown;
    try {
      parsed = JSON.parse(rules);
    } catch (err) {
      found.rules = `The rules are not valid JSON: ${(err as Error).message}`;
    }
    if (!check(found)) return;
    const body = { name: name.trim(), description, category: category.trim(), region: region.trim(), rules: parsed as PackRules };
    try {
      if (mode === "create") {
        const pack = await create.mutateAsync(body);
        router.push(`/console/packs/${pack.id}?created=1`);
      } else {
        const pack = await update.mutateAsync({ id: packId!, ...body });
        router.push(`/console/packs/${pack.id}?saved=1`);
        router.refresh();
      }
    } catch (err) {
      const fields = fieldErrorsOf(err);
      const inRules = rulePointersOf(err);
      setPointers(inRules);
      // Problems inside a field (PATCH bodies are validated as a whole) are keyed by the top-level member.
      check(fields);
    }
  }

  const serverError = generalError(mutation.error);
  const pointerListId = `${formId}-rules-pointers`;

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {serverError ? <Alert title={mode === "create" ? "The pack was not created" : "The pack was not saved"}>{serverError}</Alert> : null}
      <Field label="Name" id={`${formId}-name`} error={errors.name} hint="Shown wherever the pack is chosen, e.g. “Wire photos, EU desk”.">
        <Input
          id={`${formId}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={200}
          autoComplete="off"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={describe("name")}
        />
      </Field>
      <Field
        label="Description"
        id={`${formId}-description`}
        error={errors.description}
        hint="What the policy is for and who relies on it."
      >
        <Textarea
          id={`${formId}-description`}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          rows={3}
          maxLength={2000}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={describe("description")}
        />
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Category" id={`${formId}-category`} error={errors.category} hint="e.g. media, research, ai-disclosure.">
          <Input
            id={`${formId}-category`}
            value={category}
            onChange={(e) => setCategory(e.target.value)}
            maxLength={64}
            autoComplete="off"
            autoCapitalize="none"
            aria-invalid={errors.category ? true : undefined}
            aria-describedby={describe("category")}
          />
        </Field>
        <Field label="Region" id={`${formId}-region`} error={errors.region} hint="Where the policy applies, e.g. EU or Global.">
          <Input
            id={`${formId}-region`}
            value={region}
            onChange={(e) => setRegion(e.target.value)}
            maxLength={64}
            autoComplete="off"
            aria-invalid={errors.region ? true : undefined}
            aria-describedby={describe("region")}
          />
        </Field>
      </div>
      <div>
        <Field
          label="Rules (JSON)"
          id={`${formId}-rules`}
          error={errors.rules}
          hint={
            <>
              A JSON object; every rule is optional and <Mono>{"{}"}</Mono> runs only the cryptographic checks. See the rule reference
              below.
            </>
          }
        >
          <Textarea
            id={`${formId}-rules`}
            value={rules}
            onChange={(e) => setRules(e.target.value)}
            rows={12}
            spellCheck={false}
            autoCapitalize="none"
            autoComplete="off"
            className="font-mono text-sm leading-relaxed"
            aria-invalid={errors.rules ? true : undefined}
            aria-describedby={[describe("rules"), pointers.length ? pointerListId : null].filter(Boolean).join(" ")}
          />
        </Field>
        {pointers.length ? (
          <div id={pointerListId} className="mt-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
            <p id={`${pointerListId}-title`} className="font-medium">
              Where in the rules:
            </p>
            <ul aria-labelledby={`${pointerListId}-title`} className="mt-1 space-y-1">
              {pointers.map((p, i) => (
                <li key={`${p.pointer}-${i}`} className="break-words">
                  <Mono className="font-semibold">{p.pointer}</Mono>: {p.detail}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <RuleReference />
      </div>
      <div className="flex flex-col-reverse gap-2 border-t border-stone-200 pt-4 sm:flex-row sm:justify-end">
        <Link
          href={cancelHref}
          className="inline-flex items-center justify-center rounded-lg border border-stone-300 bg-white px-4 py-2 text-sm font-medium text-stone-900 hover:bg-stone-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
        >
          Cancel
        </Link>
        <Button type="submit" disabled={busy}>
          {busy ? (mode === "create" ? "Creating…" : "Saving…") : mode === "create" ? "Create pack" : "Save changes"}
        </Button>
      </div>
    </form>
  );
}

const REFERENCE: [string, string][] = [
  ["required_fields", '["content_hash", "source.url"]: payload fields that must be present and not empty'],
  ["field_equals", '[{"field": "label", "value": "ai-output"}]: payload fields with an exact value'],
  ["allowed_payload_types", '["hallmark.protection/v1"]: allowed payload.type values'],
  ["allowed_categories", '["media", "research"]: allowed payload.category values'],
  ["min_trust_level", '"BASIC", "VERIFIED" or "HIGH"'],
  ["allowed_issuer_statuses", '["PENDING", "ACTIVE", "SUSPENDED"]: any of these'],
  ["allowed_key_algorithms", '["Ed25519"]'],
  ["max_age_days", "a whole number from 1 to 36500"],
  ["required_visibility", '"public" or "private" (creators\u2019 protections; another creator\u2019s private one fails)'],
  ["require_content_hash_match", "true: the file's SHA-256 must be sent and match"],
];

function RuleReference() {
  return (
    <details className="group mt-3 rounded-lg border border-stone-200 bg-white">
      <summary className="flex cursor-pointer items-center justify-between gap-2 rounded-lg px-3 py-2 text-sm font-medium text-stone-900 hover:bg-stone-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-teal-700">
        Rule reference
        <span aria-hidden className="text-stone-600 transition-transform group-open:rotate-90">
          ›
        </span>
      </summary>
      <dl className="grid gap-x-4 gap-y-2 border-t border-stone-200 p-3 text-sm sm:grid-cols-[auto_1fr]">
        {REFERENCE.map(([k, v]) => (
          <div key={k} className="contents">
            <dt>
              <Mono className="text-stone-900">{k}</Mono>
            </dt>
            <dd className="mb-2 break-words text-stone-700 sm:mb-0">{v}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
