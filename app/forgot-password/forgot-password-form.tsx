"use client";
import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { useTRPC } from "../_trpc/client";
import { useFieldErrors } from "../_components/field-errors";
import { FormField } from "../_components/form-field";
import { Alert, Button } from "../_components/ui";

/**
 * Asks for a reset link. The answer is the same whether or not the address has an account (by
 * design: the page must not tell a stranger who has one), so the confirmation says "if".
 */
export function ForgotPasswordForm({ minutes }: { minutes: number }) {
  const trpc = useTRPC();
  const formId = useId();
  const request = useMutation(trpc.consumerAuth.requestPasswordReset.mutationOptions());
  const fields = useFieldErrors(formId);
  const { check, fromServer, generalError } = fields;
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget).get("email") ?? "").trim();
    if (!check(email ? {} : { email: "Enter the address you log in with." })) return;
    await request.mutateAsync({ email }).then((r) => setSentTo(r.email), fromServer);
  }

  if (sentTo) {
    return (
      <div className="space-y-4" role="status">
        <h2 className="text-xl font-semibold">Check your inbox</h2>
        <p className="text-stone-700">
          If an account exists for <strong className="break-all">{sentTo}</strong>, we sent it a link to choose a new password. The link
          works once and expires in {minutes} minutes.
        </p>
        <p className="text-sm text-stone-700">No mail after a few minutes? Look in your spam folder, or check the address and ask again.</p>
        <Button
          variant="secondary"
          onClick={() => {
            request.reset();
            setSentTo(null);
          }}
        >
          Use another address
        </Button>
      </div>
    );
  }

  const general = generalError(request.error);
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {general ? <Alert title="The link was not sent">{general}</Alert> : null}
      <FormField fields={fields} name="email" label="E-mail" type="email" autoComplete="email" required maxLength={254} />
      <Button type="submit" className="w-full" disabled={request.isPending}>
        {request.isPending ? "Sending…" : "Send me a reset link"}
      </Button>
    </form>
  );
}
