"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useId, type FormEvent } from "react";
import { errorInfo, useTRPC } from "../_trpc/client";
import { useFieldErrors } from "../_components/field-errors";
import { FormField } from "../_components/form-field";
import { Alert, Button } from "../_components/ui";

/**
 * Confirms on a submit, not on page load: mail scanners that pre-open links would otherwise use
 * up the single-use token before the person does. Every link finishes with a password (the one
 * chosen at sign-up, or the account's when it moves to this address), so opening the inbox alone
 * confirms nothing a stranger asked for.
 */
export function ConfirmEmail({ token }: { token: string }) {
  const trpc = useTRPC();
  const formId = useId();
  const verify = useMutation(trpc.consumerAuth.verifyEmail.mutationOptions());
  const fields = useFieldErrors(formId);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const password = String(new FormData(e.currentTarget).get("password") ?? "");
    if (!fields.check(password ? {} : { password: "Enter your password." })) return;
    await verify.mutateAsync({ token, password }).catch(fields.fromServer);
  }

  if (verify.isSuccess) {
    return (
      <Alert tone="success" title="E-mail address confirmed">
        <p>
          <span className="break-all">{verify.data.email}</span> is confirmed: your account logs in with it from now on.{" "}
          <Link className="font-medium underline" href="/login?verified=1">
            Log in
          </Link>
          .
        </p>
      </Alert>
    );
  }
  const invalidLink = verify.error && errorInfo(verify.error).code === "invalid_token";
  // Anything else not about the password (no answer, a 429 or 5xx) says nothing about the link: it may still work.
  const general = invalidLink ? null : fields.generalError(verify.error);
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {invalidLink ? (
        <Alert title="This link does not work">
          {errorInfo(verify.error).message}{" "}
          <Link className="underline" href="/signup?resend=1">
            Get a new link
          </Link>
          .
        </Alert>
      ) : null}
      {general ? <Alert title="Could not confirm your address">{general}</Alert> : null}
      <FormField
        fields={fields}
        name="password"
        label="Your password"
        hint="For a new account, the one you chose when you signed up; for an account moving to this address, its password. Not you? Leave this page: nothing changes without it."
        type="password"
        autoComplete="current-password"
        required
        maxLength={256}
      />
      <Button type="submit" className="w-full" disabled={verify.isPending}>
        {verify.isPending ? "Confirming…" : "Confirm my e-mail address"}
      </Button>
    </form>
  );
}
