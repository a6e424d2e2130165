"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, type FormEvent } from "react";
import { useTRPC } from "../../_trpc/client";
import { useFieldErrors } from "../../_components/field-errors";
import { CurrentPasswordField, NewPasswordField } from "../../_components/form-field";
import { Alert, Button } from "../../_components/ui";

const sessions = (n: number) => (n === 1 ? "1 other session" : `${n} other sessions`);
const keys = (n: number) => (n === 1 ? "1 API key" : `${n} API keys`);

/** What the change did, from the server's counts: the other sessions ended, and the keys revoked when asked. */
function changedInWords(ended: number, revoked: number, revokeAsked: boolean): string {
  const s = ended === 0 ? "No other session was open; this one stays." : `${sessions(ended)} ended; this one stays.`;
  if (!revokeAsked) return `${s} Your API keys keep working.`;
  return `${s} ${revoked === 0 ? "No API key was active, so none was revoked." : `${keys(revoked)} revoked.`}`;
}

/**
 * Changes the password (the current one first); the server ends every other session, and with
 * the box ticked revokes every active API key of the account (an organisation owner's: the
 * organisation's). `keysOf` names whose keys those are, in the page's words.
 */
export function PasswordForm({ keysOf }: { keysOf: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formId = useId();
  const change = useMutation(
    trpc.account.changePassword.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.account.sessions.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
      },
    }),
  );
  const fields = useFieldErrors(formId);
  const { check, fromServer, generalError } = fields;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const password = String(data.get("password") ?? "");
    const next = String(data.get("new_password") ?? "");
    const revokeKeys = data.get("revoke_api_keys") === "on";
    const found: Record<string, string> = {};
    if (!password) found.password = "Enter your current password.";
    if (next.length < 8) found.new_password = "Use at least 8 characters.";
    if (!check(found)) return;
    await change.mutateAsync({ password, new_password: next, revoke_api_keys: revokeKeys }).then(() => form.reset(), fromServer);
  }

  const general = generalError(change.error);
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {general ? <Alert title="The password was not changed">{general}</Alert> : null}
      {change.isSuccess ? (
        <Alert tone="success" title="Password changed">
          {changedInWords(change.data.sessions_ended, change.data.api_keys_revoked, change.variables.revoke_api_keys === true)}
        </Alert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <CurrentPasswordField fields={fields} />
        <NewPasswordField fields={fields} name="new_password" label="New password" />
      </div>
      <div className="flex items-start gap-3">
        <input
          type="checkbox"
          id={`${formId}-revoke_api_keys`}
          name="revoke_api_keys"
          aria-describedby={`${formId}-revoke_api_keys-hint`}
          className="mt-1 h-4 w-4 shrink-0 rounded border-stone-400 accent-teal-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
        />
        <div className="min-w-0">
          <label htmlFor={`${formId}-revoke_api_keys`} className="text-sm font-medium text-stone-800">
            Also revoke all my API keys
          </label>
          <p id={`${formId}-revoke_api_keys-hint`} className="text-xs text-stone-600">
            Every active key of {keysOf} stops working at once. Do this if a key may have leaked; you can create new ones afterwards.
          </p>
        </div>
      </div>
      <Button type="submit" variant="secondary" disabled={change.isPending}>
        {change.isPending ? "Changing…" : "Change password"}
      </Button>
    </form>
  );
}
