"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { errorInfo, useTRPC } from "../_trpc/client";
import { fieldErrorsOf, useFieldErrors } from "../_components/field-errors";
import { FormField } from "../_components/form-field";
import { Alert, Button } from "../_components/ui";

/**
 * Confirms on a submit, not on page load: mail scanners that pre-open links would otherwise use
 * up the single-use token before the person does. A sign-up's link (`signup`, or the server
 * asking for it) finishes with the password chosen at sign-up, so the page asks for it.
 */
export function ConfirmEmail({ token, signup }: { token: string; signup: boolean }) {
  const trpc = useTRPC();
  const formId = useId();
  const verify = useMutation(trpc.consumerAuth.verifyEmail.mutationOptions());
  const fields = useFieldErrors(formId);
  const [askPassword, setAskPassword] = useState(signup);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const password = askPassword ? String(new FormData(e.currentTarget).get("password") ?? "") : "";
    if (askPassword && !fields.check(password ? {} : { password: "Enter the password you chose when you signed up." })) return;
    await verify.mutateAsync({ token, ...(password ? { password } : {}) }).catch((err) => {
      if (fieldErrorsOf(err).password) setAskPassword(true);
      fields.fromServer(err);
    });
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
      {askPassword ? (
        <FormField
          fields={fields}
          name="password"
          label="The password you chose when you signed up"
          hint="Not you who signed up? Then leave this page: nothing is made without that password."
          type="password"
          autoComplete="current-password"
          required
          maxLength={256}
        />
      ) : null}
      <Button type="submit" className="w-full" disabled={verify.isPending}>
        {verify.isPending ? "Confirming…" : "Confirm my e-mail address"}
      </Button>
    </form>
  );
}
