"use client";
import { useMutation } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useTRPC } from "../_trpc/client";
import { Button } from "./ui";

/** Ends the session for good (the Session row, on every instance), then clears next-auth's cookies. */
export function SignOutButton() {
  const trpc = useTRPC();
  const logout = useMutation(trpc.consumerAuth.logout.mutationOptions());
  async function run() {
    await logout.mutateAsync().catch(() => {}); // an already-ended session still signs out below
    await signOut({ callbackUrl: "/" });
  }
  return (
    <Button variant="ghost" onClick={run} disabled={logout.isPending}>
      {logout.isPending ? "Signing out…" : "Sign out"}
    </Button>
  );
}
