"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useId, type FormEvent } from "react";
import { errorInfo, useTRPC, useTRPCClient } from "../_trpc/client";
import { useFieldErrors } from "../_components/field-errors";
import { FormField, NewPasswordField } from "../_components/form-field";
import { LoadError } from "../_components/load-error";
import { Alert, Button, Spinner } from "../_components/ui";
import { ResetKeysList } from "./reset-keys";

const sessionsEnded = (n: number) => (n === 0 ? "No session was open" : n === 1 ? "1 session ended" : `${n} sessions ended`);
const keysRevoked = (n: number) => (n === 0 ? "no API key was active" : n === 1 ? "1 API key was revoked" : `${n} API keys were revoked`);

/** The invalid-link message: the link is unknown, used or expired, and where to get another. */
function InvalidLink({ error }: { error: unknown }) {
  return (
    <Alert title="This link does not work">
      {errorInfo(error).message}{" "}
      <Link className="underline" href="/forgot-password">
        Ask for a new link
      </Link>
      .
    </Alert>
  );
}

/**
 * Sets the new password with the mailed token, on a submit only. On opening, the page asks which
 * API keys the reset would revoke (consumerAuth.resetKeys), which uses nothing up: a mail
 * scanner that pre-opens the link cannot use up the single-use token.
 */
export function ResetPasswordForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const formId = useId();
  // A read sent as a POST (the token stays out of URLs and logs): asked once per page, not on focus.
  const keys = useQuery({
    queryKey: ["consumerAuth.resetKeys", token],
    queryFn: () => client.consumerAuth.resetKeys.mutate({ token }),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
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
          {sessionsEnded(reset.data.sessions_ended)} and {keysRevoked(reset.data.api_keys_revoked)}.
        </p>
        <p className="mt-1">
          <Link className="font-medium underline" href="/login">
            Log in
          </Link>{" "}
          as <span className="break-all">{reset.data.email}</span> with the new password.
        </p>
      </Alert>
    );
  }

  if (keys.isPending) return <Spinner label="Checking the link…" />;
  if (keys.isError && errorInfo(keys.error).code === "invalid_token") return <InvalidLink error={keys.error} />;

  const invalidLink = reset.error && errorInfo(reset.error).code === "invalid_token";
  const general = invalidLink ? null : generalError(reset.error);
  return (
    <div className="space-y-5">
      {keys.isError ? (
        <LoadError title="The API keys this revokes could not be listed" error={keys.error} retry={keys.refetch} />
      ) : (
        <ResetKeysList keys={keys.data} />
      )}
      <form onSubmit={submit} noValidate className="space-y-4">
        {invalidLink ? <InvalidLink error={reset.error} /> : null}
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
    </div>
  );
}
