import type { Metadata } from "next";
import Link from "next/link";
import { Card } from "../_components/ui";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Log in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string; verified?: string }> }) {
  const { next, verified } = await searchParams;
  return (
    <div className="mx-auto max-w-md">
      <h1 className="mb-2 text-3xl font-semibold tracking-tight">Log in</h1>
      <p className="mb-6 text-stone-700">Creators log in to protect their work; organisation owners to manage their console.</p>
      {verified ? (
        <p role="status" className="mb-4 rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
          Your e-mail address is confirmed. Log in to start protecting your work.
        </p>
      ) : null}
      <Card>
        <LoginForm next={typeof next === "string" ? next : null} />
      </Card>
      <p className="mt-4 text-center text-sm">
        <Link className="font-medium text-teal-800 underline" href="/forgot-password">
          Forgot your password?
        </Link>
      </p>
      <p className="mt-4 text-center text-sm text-stone-700">
        No account yet?{" "}
        <Link className="font-medium text-teal-800 underline" href="/signup">
          Sign up free
        </Link>
      </p>
    </div>
  );
}
