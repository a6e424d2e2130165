"use client";
import { useMutation } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { NETWORK_MESSAGE } from "@/lib/request-failure";
import { errorInfo, useTRPC } from "../_trpc/client";
import { Button } from "./ui";

/** Ends the session for good (the Session row, on every instance), then clears next-auth's cookies. */
export function SignOutButton() {
  const trpc = useTRPC();
  const logout = useMutation(trpc.consumerAuth.logout.mutationOptions());
  const [error, setError] = useState<string | null>(null);
  async function run() {
    setError(null);
    try {
      await logout.mutateAsync();
    } catch (err) {
      // An already-ended session still signs out below; any other failure ended nothing.
      const { message, code } = errorInfo(err);
      if (code !== "unauthenticated" && code !== "invalid_session") return setError(`Not signed out: ${message}`);
    }
    // next-auth's signOut throws only when its request got no answer; the session has ended by now.
    await signOut({ callbackUrl: "/" }).catch(() => setError(`Your session has ended, but this page could not finish: ${NETWORK_MESSAGE}`));
  }
  return (
    <>
      <Button variant="ghost" onClick={run} disabled={logout.isPending}>
        {logout.isPending ? "Signing out…" : "Sign out"}
      </Button>
      {error ? (
        <span role="alert" className="basis-full text-right text-sm text-red-800">
          {error}
        </span>
      ) : null}
    </>
  );
}
