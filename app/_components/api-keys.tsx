"use client";
// API-key management, shared by the organisation console (/console) and a creator's dashboard
// (/dashboard/api-keys): list, create (the secret is shown once), revoke after a confirmation.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useId, useRef, useState, type FormEvent, type RefObject } from "react";
import type { AppRouter } from "@/server/api/root";
import type { Scope } from "@/server/domain/scopes";
import { errorInfo, useTRPC } from "../_trpc/client";
import { ConfirmDialog, Modal } from "./api-keys-dialog";
import { formatCount, formatDate, formatDateTime, SCOPE_HELP, sortScopes } from "./api-keys-format";
import { useFieldErrors } from "./field-errors";
import { CopyButton } from "./copy-button";
import { Alert, Badge, Button, Card, EmptyState, Field, Input, Mono, Spinner, cx } from "./ui";
import { LoadError } from "./load-error";

type ApiKey = inferRouterOutputs<AppRouter>["apiKeys"]["list"][number];

export interface ApiKeyManagerProps {
  /** The scopes the signed-in user holds: a key can be given these and no others. */
  scopes: readonly Scope[];
  defaults: { rateLimitPerMinute: number; dailyQuota: number };
  /** Who the keys act for, in the page's words ("Acme News", "your account"). */
  owner: string;
  /** The heading above the list; "Keys of <owner>" by default. */
  listTitle?: string;
}

export function ApiKeyManager({ scopes, defaults, owner, listTitle }: ApiKeyManagerProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.apiKeys.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ id: string; name: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const secretRef = useRef<HTMLHeadingElement>(null);
  const canWrite = scopes.includes("api_keys:write");

  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions({
      onSuccess: ({ id }) => {
        queryClient.setQueryData(trpc.apiKeys.list.queryKey(), (old) => old?.map((k) => (k.id === id ? { ...k, status: "REVOKED" as const } : k)));
        setRevoking(null);
        void queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
      },
    }),
  );

  function onCreated(key: { id: string; name: string; key: string }) {
    setCreating(false);
    setCreated({ id: key.id, name: key.name, secret: key.key });
    void queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
  }

  const createButton = canWrite ? (
    <Button onClick={() => setCreating(true)}>
      <span aria-hidden>+</span> Create API key
    </Button>
  ) : null;

  return (
    <div className="space-y-6">
      {created ? (
        <section aria-labelledby="new-key-heading" className="rounded-2xl border-2 border-teal-700 bg-teal-50 p-5 shadow-sm sm:p-6">
          <h2 id="new-key-heading" ref={secretRef} tabIndex={-1} className="text-lg font-semibold text-teal-950 focus:outline-none">
            Your new key “{created.name}”
          </h2>
          <p className="mt-1 font-medium text-teal-950">Copy this key now — it will not be shown again.</p>
          <p className="mt-1 text-sm text-stone-800">
            We keep only a keyed hash of it. Send it in the <Mono>X-API-Key</Mono> header of every request to <Mono>/v1</Mono>. If you lose it, revoke it and create
            another.
          </p>
          <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-center">
            <div className="min-w-0 flex-1 rounded-lg border border-teal-300 bg-white px-3 py-2.5">
              <Mono className="select-all text-base text-stone-900">
                <span data-testid="new-api-key">{created.secret}</span>
              </Mono>
            </div>
            <div className="flex gap-2">
              <CopyButton value={created.secret} label="Copy key" />
              <Button variant="ghost" onClick={() => setCreated(null)}>
                Done
              </Button>
            </div>
          </div>
        </section>
      ) : null}

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
          {listTitle ?? `Keys of ${owner}`}
        </h2>
        {list.data && list.data.length > 0 ? createButton : null}
      </div>

      {list.isPending ? (
        <Spinner label="Loading your API keys…" />
      ) : list.isError ? (
        <LoadError title="Your API keys could not be loaded" error={list.error} retry={list.refetch} />
      ) : list.data.length === 0 ? (
        <EmptyState title="No API keys yet" action={createButton}>
          A key lets a script or a server call the Hallmark API for {owner}. Give each integration its own key, with only the scopes it needs.
        </EmptyState>
      ) : (
        <KeyList keys={list.data} highlight={created?.id ?? null} canWrite={canWrite} onRevoke={(k) => { revoke.reset(); setRevoking(k); }} />
      )}

      {canWrite ? (
        <CreateKeyDialog open={creating} scopes={scopes} defaults={defaults} onClose={() => setCreating(false)} onCreated={onCreated} secretRef={secretRef} showingSecret={created !== null} />
      ) : null}

      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        description={
          <>
            <p>
              Every request that uses this key (<Mono>{revoking?.prefix}…</Mono>) will be refused with 401, at once and on every server. Whatever uses it stops working.
            </p>
            <p className="mt-2 font-medium text-stone-900">This cannot be undone.</p>
          </>
        }
        confirmLabel="Revoke key"
        pendingLabel="Revoking…"
        pending={revoke.isPending}
        error={revoke.isError ? errorInfo(revoke.error).message : null}
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
        onCancel={() => setRevoking(null)}
        returnFocus={headingRef}
      />
    </div>
  );
}

function StatusBadge({ status }: { status: ApiKey["status"] }) {
  return status === "ACTIVE" ? <Badge tone="success">ACTIVE</Badge> : <Badge tone="danger">REVOKED</Badge>;
}

function Scopes({ scopes }: { scopes: readonly string[] }) {
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Scopes">
      {sortScopes(scopes).map((s) => (
        <li key={s} className="rounded-md bg-stone-100 px-1.5 py-0.5 font-mono text-xs text-stone-800">
          {s}
        </li>
      ))}
    </ul>
  );
}

function Limits({ k }: { k: ApiKey }) {
  return (
    <span className="whitespace-nowrap text-sm text-stone-800">
      {formatCount(k.rate_limit_per_minute)}/min · {formatCount(k.daily_quota)}/day
    </span>
  );
}

function KeyList({ keys, highlight, canWrite, onRevoke }: { keys: ApiKey[]; highlight: string | null; canWrite: boolean; onRevoke: (k: ApiKey) => void }) {
  const revokeButton = (k: ApiKey) =>
    canWrite && k.status === "ACTIVE" ? (
      <Button variant="secondary" className="text-red-800" aria-label={`Revoke ${k.name}`} onClick={() => onRevoke(k)}>
        Revoke
      </Button>
    ) : null;
  return (
    <>
      {/* Desktop: a table. */}
      <div className="hidden overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm md:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">API keys, newest first</caption>
          <thead className="bg-stone-50 text-xs uppercase tracking-wide text-stone-700">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">Name</th>
              <th scope="col" className="px-4 py-3 font-semibold">Key</th>
              <th scope="col" className="px-4 py-3 font-semibold">Status</th>
              <th scope="col" className="px-4 py-3 font-semibold">Scopes</th>
              <th scope="col" className="px-4 py-3 font-semibold">Limits</th>
              <th scope="col" className="px-4 py-3 font-semibold">Created</th>
              <th scope="col" className="px-4 py-3 font-semibold"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-200">
            {keys.map((k) => (
              <tr key={k.id} className={cx(k.status === "REVOKED" && "bg-stone-50 text-stone-700", k.id === highlight && "bg-teal-50")}>
                <th scope="row" className="px-4 py-3 font-medium text-stone-900">
                  <span className="break-words">{k.name}</span>
                  {k.id === highlight ? <span className="ml-2"><Badge tone="info">New</Badge></span> : null}
                </th>
                <td className="px-4 py-3"><Mono className="whitespace-nowrap">{k.prefix}…</Mono></td>
                <td className="px-4 py-3"><StatusBadge status={k.status} /></td>
                <td className="max-w-xs px-4 py-3"><Scopes scopes={k.scopes} /></td>
                <td className="px-4 py-3"><Limits k={k} /></td>
                <td className="whitespace-nowrap px-4 py-3"><time dateTime={k.created_at} title={formatDateTime(k.created_at)}>{formatDate(k.created_at)}</time></td>
                <td className="px-4 py-3 text-right">{revokeButton(k)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* Phone: stacked cards. */}
      <ul className="space-y-3 md:hidden" aria-label="API keys, newest first">
        {keys.map((k) => (
          <li key={k.id}>
            <Card className={cx("!p-4", k.id === highlight && "border-teal-600")}>
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <h3 className="break-words font-medium">{k.name}</h3>
                  <Mono className="text-stone-700">{k.prefix}…</Mono>
                </div>
                <StatusBadge status={k.status} />
              </div>
              <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-2 text-sm">
                <dt className="text-stone-600">Scopes</dt>
                <dd className="min-w-0"><Scopes scopes={k.scopes} /></dd>
                <dt className="text-stone-600">Limits</dt>
                <dd><Limits k={k} /></dd>
                <dt className="text-stone-600">Created</dt>
                <dd><time dateTime={k.created_at}>{formatDateTime(k.created_at)}</time></dd>
              </dl>
              {revokeButton(k) ? <div className="mt-3 flex justify-end">{revokeButton(k)}</div> : null}
            </Card>
          </li>
        ))}
      </ul>
    </>
  );
}

function parseLimit(raw: string): number | undefined | "invalid" {
  const v = raw.trim();
  if (v === "") return undefined;
  if (!/^\d+$/.test(v)) return "invalid";
  const n = Number(v);
  return n >= 1 ? n : "invalid";
}

function CreateKeyDialog({
  open,
  scopes,
  defaults,
  onClose,
  onCreated,
  secretRef,
  showingSecret,
}: {
  secretRef: RefObject<HTMLHeadingElement | null>;
  showingSecret: boolean;
  open: boolean;
  scopes: readonly Scope[];
  defaults: { rateLimitPerMinute: number; dailyQuota: number };
  onClose: () => void;
  onCreated: (key: { id: string; name: string; key: string }) => void;
}) {
  const trpc = useTRPC();
  const nameRef = useRef<HTMLInputElement>(null);
  const formId = useId();
  const [name, setName] = useState("");
  const [picked, setPicked] = useState<Set<Scope>>(new Set());
  const [rate, setRate] = useState(String(defaults.rateLimitPerMinute));
  const [quota, setQuota] = useState(String(defaults.dailyQuota));
  const { errors, clear, check, fromServer, generalError, describe } = useFieldErrors(formId);
  const create = useMutation(trpc.apiKeys.create.mutationOptions());
  const offered = sortScopes(scopes) as Scope[];

  function reset() {
    setName("");
    setPicked(new Set());
    setRate(String(defaults.rateLimitPerMinute));
    setQuota(String(defaults.dailyQuota));
    clear();
    create.reset();
  }

  function close() {
    if (create.isPending) return;
    reset();
    onClose();
  }

  function toggle(scope: Scope, on: boolean) {
    setPicked((prev) => {
      const next = new Set(prev);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found: Record<string, string> = {};
    const rateLimit = parseLimit(rate);
    const dailyQuota = parseLimit(quota);
    if (!name.trim()) found.name = "Give the key a name, so you know later what uses it.";
    if (picked.size === 0) found.scopes = "Choose at least one scope.";
    if (rateLimit === "invalid") found.rate_limit_per_minute = "Enter a whole number of at least 1, or leave it empty for the default.";
    if (dailyQuota === "invalid") found.daily_quota = "Enter a whole number of at least 1, or leave it empty for the default.";
    if (!check(found)) return;
    try {
      const key = await create.mutateAsync({
        name: name.trim(),
        scopes: offered.filter((s) => picked.has(s)),
        rate_limit_per_minute: rateLimit === "invalid" ? undefined : rateLimit,
        daily_quota: dailyQuota === "invalid" ? undefined : dailyQuota,
      });
      reset();
      onCreated(key);
    } catch (err) {
      fromServer(err);
    }
  }

  const serverError = generalError(create.error);

  return (
    <Modal
      open={open}
      onClose={close}
      title="Create an API key"
      description="The key is shown once, right after you create it. Give it only the scopes it needs."
      busy={create.isPending}
      initialFocus={nameRef}
      returnFocus={secretRef}
      preferReturnFocus={showingSecret}
    >
      <form onSubmit={submit} noValidate className="space-y-5">
        {serverError ? <Alert title="The key was not created">{serverError}</Alert> : null}
        <Field label="Name" id={`${formId}-name`} error={errors.name} hint="What will use it, e.g. “CMS publisher” or “nightly backup”.">
          <Input
            ref={nameRef}
            id={`${formId}-name`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={100}
            autoComplete="off"
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describe("name")}
          />
        </Field>

        <fieldset aria-describedby={errors.scopes ? `${formId}-scopes-error` : undefined}>
          <legend className="text-sm font-medium text-stone-800">Scopes</legend>
          <p className="mt-0.5 text-xs text-stone-600">At least one. A key can never do more than you can.</p>
          <div className="mt-2 grid gap-1 sm:grid-cols-2">
            {offered.map((scope, i) => {
              const id = `${formId}-scope-${i}`;
              return (
                <div key={scope} className="flex items-start gap-3 rounded-lg px-2 py-1.5 hover:bg-stone-50">
                  <input
                    type="checkbox"
                    id={i === 0 ? `${formId}-scopes` : id}
                    checked={picked.has(scope)}
                    onChange={(e) => toggle(scope, e.target.checked)}
                    aria-describedby={`${id}-help`}
                    aria-invalid={errors.scopes ? true : undefined}
                    className="mt-1 h-4 w-4 shrink-0 rounded border-stone-400 accent-teal-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
                  />
                  <div className="min-w-0">
                    <label htmlFor={i === 0 ? `${formId}-scopes` : id} className="font-mono text-sm font-medium text-stone-900">
                      {scope}
                    </label>
                    <p id={`${id}-help`} className="text-xs text-stone-700">
                      {SCOPE_HELP[scope]}
                    </p>
                  </div>
                </div>
              );
            })}
          </div>
          {errors.scopes ? (
            <p id={`${formId}-scopes-error`} role="alert" className="mt-1 text-sm text-red-700">
              {errors.scopes}
            </p>
          ) : null}
        </fieldset>

        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Requests per minute" id={`${formId}-rate_limit_per_minute`} error={errors.rate_limit_per_minute} hint={`Default ${formatCount(defaults.rateLimitPerMinute)}.`}>
            <Input
              id={`${formId}-rate_limit_per_minute`}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={rate}
              onChange={(e) => setRate(e.target.value)}
              aria-invalid={errors.rate_limit_per_minute ? true : undefined}
              aria-describedby={describe("rate_limit_per_minute")}
            />
          </Field>
          <Field label="Daily quota" id={`${formId}-daily_quota`} error={errors.daily_quota} hint={`Requests per UTC day. Default ${formatCount(defaults.dailyQuota)}.`}>
            <Input
              id={`${formId}-daily_quota`}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={quota}
              onChange={(e) => setQuota(e.target.value)}
              aria-invalid={errors.daily_quota ? true : undefined}
              aria-describedby={describe("daily_quota")}
            />
          </Field>
        </div>

        <div className="flex flex-col-reverse gap-2 border-t border-stone-200 pt-4 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create key"}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
