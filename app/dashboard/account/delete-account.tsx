"use client";
import { useMutation } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useId, useState, type FormEvent } from "react";
import { errorInfo, useTRPC } from "../../_trpc/client";
import { useFieldErrors } from "../../_components/field-errors";
import { CurrentPasswordField, FormField } from "../../_components/form-field";
import { Alert, Button } from "../../_components/ui";

/**
 * Deletes the account after the current password and the typed word DELETE. The server ends
 * every session with it; next-auth's cookie is cleared here, and the person lands on the home
 * page logged out.
 */
export function DeleteAccountForm() {
  const trpc = useTRPC();
  const formId = useId();
  const remove = useMutation(trpc.account.delete.mutationOptions());
  const fields = useFieldErrors(formId);
  const { check, fromServer, generalError } = fields;
  const [unfinished, setUnfinished] = useState<string | null>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const password = String(data.get("password") ?? "");
    const confirm = String(data.get("confirm") ?? "");
    const found: Record<string, string> = {};
    if (!password) found.password = "Enter your current password.";
    if (confirm !== "DELETE") found.confirm = "Type DELETE, in capitals, to confirm.";
    if (!check(found)) return;
    try {
      await remove.mutateAsync({ password, confirm: "DELETE" });
    } catch (err) {
      return fromServer(err);
    }
    // The account and its sessions are gone already; this clears the browser's cookie.
    await signOut({ callbackUrl: "/" }).catch((err) => setUnfinished(errorInfo(err).message));
  }

  if (remove.isSuccess) {
    return (
      <Alert tone="success" title="Your account is deleted">
        {unfinished ? (
          <p>
            This page could not finish logging you out ({unfinished}).{" "}
            <a className="font-medium underline" href="/">
              Go to the home page
            </a>
            .
          </p>
        ) : (
          <p>Logging you out…</p>
        )}
      </Alert>
    );
  }

  const general = generalError(remove.error);
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {general ? <Alert title="The account was not deleted">{general}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <CurrentPasswordField fields={fields} />
        <FormField
          fields={fields}
          name="confirm"
          label="Type DELETE to confirm"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          required
          maxLength={16}
        />
      </div>
      <Button type="submit" variant="danger" disabled={remove.isPending}>
        {remove.isPending ? "Deleting…" : "Delete my account"}
      </Button>
    </form>
  );
}
