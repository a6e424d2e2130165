"use client";
// Creating an API key: name, scopes (only those the user holds) and limits, in a modal. The
// current password is asked too: a key outlasts the session that made it, so a session alone
// (a browser left open) must not be enough to mint one.
import { useMutation } from "@tanstack/react-query";
import { useId, useRef, useState, type FormEvent, type RefObject } from "react";
import type { Scope } from "@/server/domain/accounts";
import { useTRPC } from "../_trpc/client";
import { Modal } from "./api-keys-dialog";
import { formatCount, SCOPE_HELP, sortScopes } from "./api-keys-format";
import { useFieldErrors } from "./field-errors";
import { CurrentPasswordField } from "./form-field";
import { DialogActions } from "./dialog-actions";
import { Alert, Field, Input } from "./ui";

function parseLimit(raw: string): number | undefined | "invalid" {
  const v = raw.trim();
  if (v === "") return undefined;
  if (!/^\d+$/.test(v)) return "invalid";
  const n = Number(v);
  return n >= 1 ? n : "invalid";
}

export function CreateKeyDialog({
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
  const [password, setPassword] = useState("");
  const fields = useFieldErrors(formId);
  const { errors, clear, check, fromServer, generalError, describe } = fields;
  const create = useMutation(trpc.apiKeys.create.mutationOptions());
  const offered = sortScopes(scopes) as Scope[];

  function reset() {
    setName("");
    setPicked(new Set());
    setRate(String(defaults.rateLimitPerMinute));
    setQuota(String(defaults.dailyQuota));
    setPassword("");
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
    if (!password) found.password = "Enter your current password.";
    if (!check(found)) return;
    try {
      const key = await create.mutateAsync({
        name: name.trim(),
        scopes: offered.filter((s) => picked.has(s)),
        rate_limit_per_minute: rateLimit === "invalid" ? undefined : rateLimit,
        daily_quota: dailyQuota === "invalid" ? undefined : dailyQuota,
        password,
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
          <Field
            label="Requests per minute"
            id={`${formId}-rate_limit_per_minute`}
            error={errors.rate_limit_per_minute}
            hint={`Default ${formatCount(defaults.rateLimitPerMinute)}.`}
          >
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
          <Field
            label="Daily quota"
            id={`${formId}-daily_quota`}
            error={errors.daily_quota}
            hint={`Requests per UTC day. Default ${formatCount(defaults.dailyQuota)}.`}
          >
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

        <CurrentPasswordField
          fields={fields}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint="A key outlasts this session, so we ask for your password."
        />

        {/* Beside the buttons, where the eye is after a click: the dialog may scroll on a phone. */}
        {serverError ? <Alert title="The key was not created">{serverError}</Alert> : null}

        <DialogActions onCancel={close} label="Create key" busyLabel="Creating…" busy={create.isPending} ruled />
      </form>
    </Modal>
  );
}
