"use client";
import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { useTRPC } from "../_trpc/client";
import { useFieldErrors } from "../_components/field-errors";
import { Alert, Button, Field, Input } from "../_components/ui";

/**
 * Asks for a reset link. The answer is the same whether or not the address has an account (by
 * design: the page must not tell a stranger who has one), so the confirmation says "if".
 */
export function ForgotPasswordForm({ minutes }: { minutes: number }) {
  const trpc = useTRPC();
  const formId = useId();
  const request = useMutation(trpc.consumerAuth.requestPasswordReset.mutationOptions());
  const { errors, check, fromServer, generalError, describe } = useFieldErrors(formId);
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
      <Field label="E-mail" id={`${formId}-email`} error={errors.email}>
        <Input
          id={`${formId}-email`}
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? describe("email") : undefined}
        />
      </Field>
      <Button type="submit" className="w-full" disabled={request.isPending}>
        {request.isPending ? "Sending…" : "Send me a reset link"}
      </Button>
    </form>
  );
}
