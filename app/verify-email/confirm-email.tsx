"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { errorInfo, useTRPC } from "../_trpc/client";
import { Alert, Button } from "../_components/ui";

/**
 * Confirms on a click, not on page load: mail scanners that pre-open links would otherwise use
 * up the single-use token before the person does.
 */
export function ConfirmEmail({ token }: { token: string }) {
  const trpc = useTRPC();
  const verify = useMutation(trpc.consumerAuth.verifyEmail.mutationOptions());
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
  return (
    <div className="space-y-4">
      {verify.error && errorInfo(verify.error).code === "invalid_token" ? (
        <Alert title="This link does not work">
          {errorInfo(verify.error).message}{" "}
          <Link className="underline" href="/signup?resend=1">
            Get a new link
          </Link>
          .
        </Alert>
      ) : verify.error ? (
        // Anything else (no answer, a 429 or 5xx) says nothing about the link: it may still work.
        <Alert title="Could not confirm your address">{errorInfo(verify.error).message}</Alert>
      ) : null}
      <Button className="w-full" disabled={verify.isPending} onClick={() => verify.mutate({ token })}>
        {verify.isPending ? "Confirming…" : "Confirm my e-mail address"}
      </Button>
    </div>
  );
}
