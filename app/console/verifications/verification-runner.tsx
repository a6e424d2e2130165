"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import type { AppRouter } from "@/server/api/root";
import { parseJson } from "@/lib/verify/json-parse";
import { formatDateTime } from "../../_components/api-keys-format";
import { useFieldErrors } from "../../_components/field-errors";
import { LoadError } from "../../_components/load-error";
import { CheckList, ResultBadge, Verdict } from "../../_components/verification-checks";
import { Alert, Button, Card, cx, EmptyState, Field, Input, Mono, Select, Spinner, Textarea, textLink } from "../../_components/ui";
import { useTRPC } from "../../_trpc/client";

type Verification = inferRouterOutputs<AppRouter>["verifications"]["run"];

export function VerificationRunner({
  packs,
  preselected,
}: {
  packs: { id: string; name: string; is_template: boolean }[];
  preselected: string | null;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formId = useId();
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const [source, setSource] = useState<"attestation" | "bundle">("attestation");
  const [attestationId, setAttestationId] = useState("");
  const [bundle, setBundle] = useState("");
  const [packId, setPackId] = useState(preselected && packs.some((p) => p.id === preselected) ? preselected : "");
  const [contentHash, setContentHash] = useState("");
  const [result, setResult] = useState<Verification | null>(null);
  const { errors, check, fromServer, generalError, describe } = useFieldErrors(formId);
  const run = useMutation(trpc.verifications.run.mutationOptions());
  // Once a result is on screen (not before: it must be rendered), move focus to it.
  useEffect(() => {
    if (result) resultHeading.current?.focus();
  }, [result]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setResult(null);
    const found: Record<string, string> = {};
    let parsedBundle: Record<string, unknown> | undefined;
    if (source === "attestation") {
      if (!attestationId.trim()) found.attestation_id = "Enter the id of one of your attestations.";
    } else {
      try {
        const v = parseJson(bundle);
        if (typeof v !== "object" || v === null || Array.isArray(v)) found.bundle = "Paste a proof bundle: a JSON object.";
        else parsedBundle = v as Record<string, unknown>;
      } catch {
        found.bundle = bundle.trim() ? "This is not valid JSON. Paste the whole proof bundle file." : "Paste a proof bundle (JSON).";
      }
    }
    if (!check(found)) return;
    try {
      const answer = await run.mutateAsync({
        ...(source === "attestation" ? { attestation_id: attestationId.trim() } : { bundle: parsedBundle }),
        ...(packId ? { pack_id: packId } : {}),
        ...(contentHash.trim() ? { content_hash: contentHash.trim() } : {}),
      });
      setResult(answer);
      void queryClient.invalidateQueries({ queryKey: trpc.verifications.list.queryKey() });
    } catch (err) {
      fromServer(err);
    }
  }

  const serverError = generalError(run.error);
  const tab = (value: "attestation" | "bundle", label: string) => (
    <label
      className={cx(
        "flex flex-1 cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm font-medium has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-teal-700",
        source === value ? "border-teal-800 bg-teal-50 text-teal-900" : "border-stone-300 bg-white text-stone-800 hover:bg-stone-50",
      )}
    >
      <input
        type="radio"
        name={`${formId}-source`}
        value={value}
        checked={source === value}
        onChange={() => setSource(value)}
        className="accent-teal-800"
      />
      {label}
    </label>
  );

  return (
    <div className="space-y-8">
      <Card aria-labelledby={`${formId}-heading`}>
        <h2 id={`${formId}-heading`} className="mb-4 text-lg font-semibold">
          What to verify
        </h2>
        <form onSubmit={submit} noValidate className="space-y-5">
          {serverError ? <Alert title="The verification did not run">{serverError}</Alert> : null}
          <fieldset>
            <legend className="text-sm font-medium text-stone-800">Verify by</legend>
            <div className="mt-1 flex flex-col gap-2 sm:flex-row">
              {tab("attestation", "Attestation ID")}
              {tab("bundle", "Proof bundle (paste JSON)")}
            </div>
          </fieldset>
          {source === "attestation" ? (
            <Field
              label="Attestation ID"
              id={`${formId}-attestation_id`}
              error={errors.attestation_id}
              hint="One of your organisation's attestations, e.g. from POST /v1/attestations."
            >
              <Input
                id={`${formId}-attestation_id`}
                value={attestationId}
                onChange={(e) => setAttestationId(e.target.value)}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                className="font-mono text-sm"
                aria-invalid={errors.attestation_id ? true : undefined}
                aria-describedby={describe("attestation_id")}
              />
            </Field>
          ) : (
            <Field
              label="Proof bundle (JSON)"
              id={`${formId}-bundle`}
              error={errors.bundle}
              hint="Any proof bundle of this log, e.g. a creator's downloaded proof-bundle.json. It is checked exactly as pasted."
            >
              <Textarea
                id={`${formId}-bundle`}
                value={bundle}
                onChange={(e) => setBundle(e.target.value)}
                rows={8}
                spellCheck={false}
                autoCapitalize="none"
                autoComplete="off"
                className="font-mono text-xs"
                aria-invalid={errors.bundle ? true : undefined}
                aria-describedby={describe("bundle")}
              />
            </Field>
          )}
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Pack" id={`${formId}-pack_id`} error={errors.pack_id} hint="Its rules run after the cryptographic checks.">
              <Select
                id={`${formId}-pack_id`}
                value={packId}
                onChange={(e) => setPackId(e.target.value)}
                aria-invalid={errors.pack_id ? true : undefined}
                aria-describedby={describe("pack_id")}
              >
                <option value="">No pack: cryptographic checks only</option>
                {packs.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                    {p.is_template ? " (template)" : ""}
                  </option>
                ))}
              </Select>
            </Field>
            <Field
              label="Content hash (optional)"
              id={`${formId}-content_hash`}
              error={errors.content_hash}
              hint="The SHA-256 of the file you hold, to compare with the attested one."
            >
              <Input
                id={`${formId}-content_hash`}
                value={contentHash}
                onChange={(e) => setContentHash(e.target.value)}
                placeholder="sha256:…"
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                className="font-mono text-sm"
                aria-invalid={errors.content_hash ? true : undefined}
                aria-describedby={describe("content_hash")}
              />
            </Field>
          </div>
          <div className="flex justify-end border-t border-stone-200 pt-4">
            <Button type="submit" disabled={run.isPending}>
              {run.isPending ? "Verifying…" : "Verify"}
            </Button>
          </div>
        </form>
      </Card>

      {result ? (
        <section aria-labelledby={`${formId}-result`} className="space-y-4" data-testid="verification-result">
          <h2 id={`${formId}-result`} ref={resultHeading} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
            Result
          </h2>
          <Verdict result={result.result} checks={result.checks}>
            {result.pack ? (
              <>
                Pack{" "}
                <Link className={textLink} href={`/console/packs/${result.pack.id}`}>
                  {result.pack.name}
                </Link>{" "}
                (revision {result.pack.revision}), now used in {result.pack.verifications_count}{" "}
                {result.pack.verifications_count === 1 ? "verification" : "verifications"}.
              </>
            ) : (
              "No pack: the cryptographic checks only."
            )}{" "}
            <Link className={textLink} href={`/console/verifications/${result.id}`}>
              Permanent record
            </Link>
          </Verdict>
          <CheckList checks={result.checks} />
        </section>
      ) : null}
    </div>
  );
}

export function RecentVerifications() {
  const trpc = useTRPC();
  const list = useQuery(trpc.verifications.list.queryOptions({ limit: "20" }));
  return (
    <section aria-labelledby="recent-heading" className="space-y-4">
      <h2 id="recent-heading" className="text-lg font-semibold">
        Recent verifications
      </h2>
      {list.isPending ? (
        <Spinner label="Loading recent verifications…" />
      ) : list.isError ? (
        <LoadError title="Recent verifications could not be loaded" error={list.error} retry={list.refetch} />
      ) : list.data.items.length === 0 ? (
        <EmptyState title="No verifications yet">
          Verifications you run here or through POST /v1/verifications are recorded and listed here.
        </EmptyState>
      ) : (
        <ul
          aria-label="Recent verifications, newest first"
          className="divide-y divide-stone-200 overflow-hidden rounded-2xl border border-stone-200 bg-white"
        >
          {list.data.items.map((v) => (
            <li key={v.id} className="flex flex-col gap-1 p-4 sm:flex-row sm:items-center sm:gap-4">
              <div className="flex items-center gap-3 sm:w-24">
                <ResultBadge result={v.result} />
              </div>
              <div className="min-w-0 flex-1">
                <Link className={textLink} href={`/console/verifications/${v.id}`}>
                  {v.pack ? v.pack.name : "Cryptographic checks only"}
                </Link>
                <p className="text-xs text-stone-600">
                  {v.source === "bundle" ? "Pasted bundle" : "Attestation"}
                  {v.attestation_id ? (
                    <>
                      {" "}
                      <Mono>{v.attestation_id}</Mono>
                    </>
                  ) : null}
                </p>
              </div>
              <time className="whitespace-nowrap text-sm text-stone-700" dateTime={v.created_at}>
                {formatDateTime(v.created_at)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
