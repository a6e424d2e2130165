"use client";
import { useMutation } from "@tanstack/react-query";
import { useId, type FormEvent } from "react";
import { useTRPC } from "../../_trpc/client";
import { useFieldErrors } from "../../_components/field-errors";
import { CurrentPasswordField, FormField } from "../../_components/form-field";
import { Alert, Button } from "../../_components/ui";

/**
 * Asks to move the account to another address: nothing changes until the link mailed there is
 * followed. The answer is the same whether or not the address is free (a taken one gets no
 * link), so the confirmation says "if".
 */
export function EmailForm({ current, minutes }: { current: string; minutes: number }) {
  const trpc = useTRPC();
  const formId = useId();
  const change = useMutation(trpc.account.changeEmail.mutationOptions());
  const fields = useFieldErrors(formId);
  const { check, fromServer, generalError } = fields;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const email = String(data.get("email") ?? "").trim();
    const password = String(data.get("password") ?? "");
    const found: Record<string, string> = {};
    if (!email) found.email = "Enter the new address.";
    if (!password) found.password = "Enter your current password.";
    if (!check(found)) return;
    await change.mutateAsync({ email, password }).then(() => form.reset(), fromServer);
  }

  const general = generalError(change.error);
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {general ? <Alert title="The address was not changed">{general}</Alert> : null}
      {change.isSuccess ? (
        <Alert tone="success" title="Check the new inbox">
          If no other account uses <span className="break-all font-medium">{change.data.email}</span>, we sent it a link; your account moves
          there when the link is opened (it works once, within {minutes} minutes). Until then you log in with{" "}
          <span className="break-all">{current}</span>, which got a notice of this request.
        </Alert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField fields={fields} name="email" label="New e-mail address" type="email" autoComplete="email" required maxLength={254} />
        <CurrentPasswordField fields={fields} />
      </div>
      <Button type="submit" variant="secondary" disabled={change.isPending}>
        {change.isPending ? "Sending…" : "Send the confirmation link"}
      </Button>
    </form>
  );
}
