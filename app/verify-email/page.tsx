import type { Metadata } from "next";
import Link from "next/link";
import { Alert, Card } from "../_components/ui";
import { ConfirmEmail } from "./confirm-email";

export const metadata: Metadata = { title: "Confirm your e-mail", robots: { index: false } };

export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return (
    <div className="mx-auto max-w-md">
      <h1 className="mb-2 text-3xl font-semibold tracking-tight">Confirm your e-mail</h1>
      <p className="mb-6 text-stone-700">
        Confirm that this address is yours, with your password: for a new account, or for one moving to it.
      </p>
      <Card>
        {typeof token === "string" && token ? (
          <ConfirmEmail token={token} />
        ) : (
          <Alert title="This link is incomplete">
            Open the link from the e-mail exactly as sent, or{" "}
            <Link className="underline" href="/signup?resend=1">
              get a new one
            </Link>
            .
          </Alert>
        )}
      </Card>
    </div>
  );
}
