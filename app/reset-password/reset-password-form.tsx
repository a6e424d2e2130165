"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useId, type FormEvent } from "react";
import { errorInfo, useTRPC } from "../_trpc/client";
import { useFieldErrors } from "../_components/field-errors";
import { FormField, NewPasswordField } from "../_components/form-field";
import { Alert, Button } from "../_components/ui";

/**
 * Sets the new password with the mailed token, on a submit only: the page itself does nothing on
 * load, so a mail scanner that pre-opens the link cannot use up the single-use token.
 */
export function ResetPasswordForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const formId = useId();
  const reset = useMutation(trpc.consumerAuth.resetPassword.mutationOptions());
  const fields = useFieldErrors(formId);
  const { check, fromServer, generalError } = fields;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = String(form.get("password") ?? "");
    const repeated = String(form.get("confirm") ?? "");
    const found: Record<string, string> = {};
    if (password.length < 8) found.password = "Use at least 8 characters.";
    else if (repeated !== password) found.confirm = "The two passwords differ: type the same one twice.";
    if (!check(found)) return;
    await reset.mutateAsync({ token, password }).catch(fromServer);
  }

  if (reset.isSuccess) {
    return (
      <Alert tone="success" title="Your password is changed">
        <p>
          Every session of <span className="break-all">{reset.data.email}</span> has ended.{" "}
          <Link className="font-medium underline" href="/login">
            Log in
          </Link>{" "}
          with the new password.
        </p>
      </Alert>
    );
  }

  const invalidLink = reset.error && errorInfo(reset.error).code === "invalid_token";
  const general = invalidLink ? null : generalError(reset.error);
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {invalidLink ? (
        <Alert title="This link does not work">
          {errorInfo(reset.error).message}{" "}
          <Link className="underline" href="/forgot-password">
            Ask for a new link
          </Link>
          .
        </Alert>
      ) : null}
      {general ? <Alert title="The password was not changed">{general}</Alert> : null}
      <NewPasswordField fields={fields} name="password" label="New password" />
      <FormField
        fields={fields}
        name="confirm"
        label="Repeat the new password"
        type="password"
        autoComplete="new-password"
        required
        maxLength={256}
      />
      <Button type="submit" className="w-full" disabled={reset.isPending}>
        {reset.isPending ? "Saving…" : "Set the new password"}
      </Button>
    </form>
  );
}
