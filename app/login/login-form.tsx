"use client";
import { signIn } from "next-auth/react";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { sameOriginPath } from "@/lib/same-origin-path";
import { Alert, Button, Field, Input } from "../_components/ui";

/** next-auth reports a failed Credentials sign-in as `error`: our stable code, or CredentialsSignin. */
const MESSAGES: Record<string, string> = {
  CredentialsSignin: "The e-mail address or the password is wrong.",
  email_not_verified: "Confirm your e-mail address first: follow the link we sent you.",
  too_many_attempts: "Too many failed attempts. Wait a few minutes, then try again.",
};

export function LoginForm({ next }: { next: string | null }) {
  const [error, setError] = useState<string | null>(null);
  const [unverified, setUnverified] = useState(false);
  const [pending, setPending] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    const res = await signIn("credentials", { email: String(form.get("email")), password: String(form.get("password")), redirect: false });
    if (res?.ok && !res.error) {
      // Only this origin: `next` must never send someone to another site after logging in.
      window.location.assign(sameOriginPath(next, window.location.origin, "/dashboard"));
      return;
    }
    setPending(false);
    const code = res?.error ?? "";
    setUnverified(code === "email_not_verified");
    setError(MESSAGES[code] ?? "Logging in failed. Please try again.");
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate={false}>
      {error ? (
        <Alert title="Could not log in">
          {error}
          {unverified ? (
            <>
              {" "}
              <Link className="underline" href="/signup?resend=1">
                Send a new link
              </Link>
              .
            </>
          ) : null}
        </Alert>
      ) : null}
      <Field label="E-mail" id="email">
        <Input id="email" name="email" type="email" autoComplete="email" required />
      </Field>
      <Field label="Password" id="password">
        <Input id="password" name="password" type="password" autoComplete="current-password" required />
      </Field>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Logging in…" : "Log in"}
      </Button>
    </form>
  );
}
