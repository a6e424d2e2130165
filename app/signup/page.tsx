import type { Metadata } from "next";
import Link from "next/link";
import { Card } from "../_components/ui";
import { SignupForm } from "./signup-form";

export const metadata: Metadata = { title: "Sign up" };

export default async function SignupPage({ searchParams }: { searchParams: Promise<{ resend?: string }> }) {
  const { resend } = await searchParams;
  return (
    <div className="mx-auto max-w-md">
      <h1 className="mb-2 text-3xl font-semibold tracking-tight">Create your account</h1>
      <p className="mb-6 text-stone-700">Free: 50 protections a month. No card, and your files never leave your device.</p>
      <Card>
        <SignupForm resend={resend === "1"} />
      </Card>
      <p className="mt-6 text-center text-sm text-stone-700">
        Have an account?{" "}
        <Link className="font-medium text-teal-800 underline" href="/login">
          Log in
        </Link>
      </p>
    </div>
  );
}
