import type { Metadata } from "next";
import Link from "next/link";
import { RESET_TOKEN_MINUTES } from "@/server/domain/accounts";
import { Card } from "../_components/ui";
import { ForgotPasswordForm } from "./forgot-password-form";

export const metadata: Metadata = { title: "Forgot your password" };

export default function ForgotPasswordPage() {
  return (
    <div className="mx-auto max-w-md">
      <h1 className="mb-2 text-3xl font-semibold tracking-tight">Forgot your password?</h1>
      <p className="mb-6 text-stone-700">Give the address you log in with: we mail it a link to choose a new password.</p>
      <Card>
        <ForgotPasswordForm minutes={RESET_TOKEN_MINUTES} />
      </Card>
      <p className="mt-6 text-center text-sm text-stone-700">
        Remembered it?{" "}
        <Link className="font-medium text-teal-800 underline" href="/login">
          Log in
        </Link>
      </p>
    </div>
  );
}
