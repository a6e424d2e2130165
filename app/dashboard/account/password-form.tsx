"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, type FormEvent } from "react";
import { useTRPC } from "../../_trpc/client";
import { useFieldErrors } from "../../_components/field-errors";
import { CurrentPasswordField, NewPasswordField } from "../../_components/form-field";
import { Alert, Button } from "../../_components/ui";

const sessions = (n: number) => (n === 1 ? "1 other session" : `${n} other sessions`);

/** Changes the password (the current one first); the server ends every other session. */
export function PasswordForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formId = useId();
  const change = useMutation(
    trpc.account.changePassword.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.account.sessions.queryKey() }),
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
    const found: Record<string, string> = {};
    if (!password) found.password = "Enter your current password.";
    if (next.length < 8) found.new_password = "Use at least 8 characters.";
    if (!check(found)) return;
    await change.mutateAsync({ password, new_password: next }).then(() => form.reset(), fromServer);
  }

  const general = generalError(change.error);
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {general ? <Alert title="The password was not changed">{general}</Alert> : null}
      {change.isSuccess ? (
        <Alert tone="success" title="Password changed">
          {change.data.sessions_ended === 0
            ? "No other session was open; this one stays."
            : `${sessions(change.data.sessions_ended)} ended; this one stays.`}
        </Alert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <CurrentPasswordField fields={fields} />
        <NewPasswordField fields={fields} name="new_password" label="New password" />
      </div>
      <Button type="submit" variant="secondary" disabled={change.isPending}>
        {change.isPending ? "Changing…" : "Change password"}
      </Button>
    </form>
  );
}
