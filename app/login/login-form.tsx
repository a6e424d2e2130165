"use client";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { waitInWords } from "@/lib/request-failure";
import { sameOriginPath } from "@/lib/same-origin-path";
import { Alert, Button, Field, Input } from "../_components/ui";
import { signInWithPassword } from "./password-sign-in";

/**
 * Codes a login is refused with whose words are the form's own; any other refusal says its own
 * (a 429 its wait). An address not yet confirmed is refused as a wrong password is (saying which
 * would tell anyone which addresses have signed up), so the words for it name both.
 */
const MESSAGES: Record<string, string> = {
  CredentialsSignin: "The e-mail address or the password is wrong.",
};

export function LoginForm({ next }: { next: string | null }) {
  const [error, setError] = useState<string | null>(null);
  const [wrongCredentials, setWrongCredentials] = useState(false);
  const [pending, setPending] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    const res = await signInWithPassword(String(form.get("email")), String(form.get("password")));
    if (res.ok) {
      // Only this origin: `next` must never send someone to another site after logging in.
      window.location.assign(sameOriginPath(next, window.location.origin, "/dashboard"));
      return;
    }
    setPending(false);
    setWrongCredentials(res.code === "CredentialsSignin");
    const wait = res.code === "too_many_attempts" && res.retryAfter !== null ? res.retryAfter : null;
    setError(wait !== null ? `Too many failed attempts. Try again ${waitInWords(wait)}.` : (res.code && MESSAGES[res.code]) || res.message);
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate={false}>
      {error ? (
        <Alert title="Could not log in">
          <p>{error}</p>
          {wrongCredentials ? (
            <p className="mt-1">
              Signed up recently? Follow the link in the e-mail we sent you first.{" "}
              <Link className="underline" href="/signup?resend=1">
                Send a new link
              </Link>
              .
            </p>
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
