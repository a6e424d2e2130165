import type { Metadata } from "next";
import Link from "next/link";
import { Alert, Card } from "../_components/ui";
import { ResetPasswordForm } from "./reset-password-form";

export const metadata: Metadata = { title: "Choose a new password", robots: { index: false } };

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return (
    <div className="mx-auto max-w-md">
      <h1 className="mb-2 text-3xl font-semibold tracking-tight">Choose a new password</h1>
      <p className="mb-6 text-stone-700">
        Setting it logs out every session of your account, wherever it was opened, and revokes every API key of the account.
      </p>
      <Card>
        {typeof token === "string" && token ? (
          <ResetPasswordForm token={token} />
        ) : (
          <Alert title="This link is incomplete">
            Open the link from the e-mail exactly as sent, or{" "}
            <Link className="underline" href="/forgot-password">
              ask for a new one
            </Link>
            .
          </Alert>
        )}
      </Card>
    </div>
  );
}
