"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useId, type FormEvent } from "react";
import { errorInfo, useTRPC } from "../_trpc/client";
import { useFieldErrors } from "../_components/field-errors";
import { Alert, Button, Field, Input } from "../_components/ui";

/**
 * Sets the new password with the mailed token, on a submit only: the page itself does nothing on
 * load, so a mail scanner that pre-opens the link cannot use up the single-use token.
 */
export function ResetPasswordForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const formId = useId();
  const reset = useMutation(trpc.consumerAuth.resetPassword.mutationOptions());
  const { errors, check, fromServer, generalError, describe } = useFieldErrors(formId);

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
      <Field label="New password" id={`${formId}-password`} error={errors.password} hint="At least 8 characters.">
        <Input
          id={`${formId}-password`}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={256}
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={describe("password")}
        />
      </Field>
      <Field label="Repeat the new password" id={`${formId}-confirm`} error={errors.confirm}>
        <Input
          id={`${formId}-confirm`}
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          maxLength={256}
          aria-invalid={errors.confirm ? true : undefined}
          aria-describedby={errors.confirm ? describe("confirm") : undefined}
        />
      </Field>
      <Button type="submit" className="w-full" disabled={reset.isPending}>
        {reset.isPending ? "Saving…" : "Set the new password"}
      </Button>
    </form>
  );
}
