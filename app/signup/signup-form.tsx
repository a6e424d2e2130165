"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { errorInfo, useTRPC } from "../_trpc/client";
import { fieldErrorsOf } from "../_components/field-errors";
import { Alert, Button, Field, Input } from "../_components/ui";

/** Sign-up, then "check your inbox" with a resend button (the same answer for any address, by design). */
export function SignupForm({ resend }: { resend: boolean }) {
  const trpc = useTRPC();
  const signup = useMutation(trpc.consumerAuth.signup.mutationOptions());
  const again = useMutation(trpc.consumerAuth.resendVerification.mutationOptions());
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [mode, setMode] = useState<"signup" | "resend">(resend ? "resend" : "signup");
  const errors = signup.error ? fieldErrorsOf(signup.error) : {};

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get("email") ?? "");
    if (mode === "resend") {
      await again.mutateAsync({ email }).then(
        () => setSentTo(email),
        () => {},
      );
      return;
    }
    await signup.mutateAsync({ name: String(form.get("name") ?? ""), email, password: String(form.get("password") ?? "") }).then(
      (r) => setSentTo(r.email),
      () => {},
    );
  }

  if (sentTo) {
    return (
      <div className="space-y-4" role="status">
        <h2 className="text-xl font-semibold">Check your inbox</h2>
        <p className="text-stone-700">
          We sent a confirmation link to <strong className="break-all">{sentTo}</strong>. Follow it to confirm your address before you log
          in: until then, logging in with this address does not work. The link works once and expires in 24 hours.
        </p>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" disabled={again.isPending} onClick={() => again.mutate({ email: sentTo })}>
            {again.isPending ? "Sending…" : again.isSuccess ? "Sent again" : "Send the link again"}
          </Button>
          <Link className="self-center text-sm font-medium text-teal-800 underline" href="/login">
            Go to log in
          </Link>
        </div>
        {again.error ? <Alert title="Could not send the link again">{errorInfo(again.error).message}</Alert> : null}
      </div>
    );
  }

  const failure = mode === "signup" ? signup.error : again.error;
  const general = failure && Object.keys(errors).length === 0 ? errorInfo(failure).message : null;
  const pending = signup.isPending || again.isPending;
  const describe = (name: string) => (errors[name] ? `${name}-error` : undefined);

  return (
    <form onSubmit={submit} className="space-y-4">
      {general ? <Alert title="Could not sign up">{general}</Alert> : null}
      {mode === "signup" ? (
        <Field label="Your name" id="name" error={errors.name} hint="Shown on your public protections and portfolio.">
          <Input
            id="name"
            name="name"
            autoComplete="name"
            required
            maxLength={100}
            aria-describedby={describe("name") ?? "name-hint"}
            aria-invalid={!!errors.name}
          />
        </Field>
      ) : null}
      <Field label="E-mail" id="email" error={errors.email}>
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          required
          aria-describedby={describe("email")}
          aria-invalid={!!errors.email}
        />
      </Field>
      {mode === "signup" ? (
        <Field label="Password" id="password" error={errors.password} hint="At least 8 characters.">
          <Input
            id="password"
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
            aria-describedby={describe("password") ?? "password-hint"}
            aria-invalid={!!errors.password}
          />
        </Field>
      ) : null}
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Sending…" : mode === "signup" ? "Create account" : "Send a new link"}
      </Button>
      <p className="text-center text-sm text-stone-700">
        {mode === "signup" ? (
          <button type="button" className="underline" onClick={() => setMode("resend")}>
            Signed up already but lost the link?
          </button>
        ) : (
          <button type="button" className="underline" onClick={() => setMode("signup")}>
            Create a new account instead
          </button>
        )}
      </p>
    </form>
  );
}
