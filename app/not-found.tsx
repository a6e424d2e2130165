import type { Metadata } from "next";
import { EmptyState, LinkButton } from "./_components/ui";

export const metadata: Metadata = { title: "Page not found" };

/** Any path no page serves (Next.js's built-in 404 uses inline styles, which the CSP refuses). */
export default function NotFound() {
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="mb-6 text-3xl font-semibold tracking-tight">Page not found</h1>
      <EmptyState title="This page could not be found" action={<LinkButton href="/">Go to Hallmark</LinkButton>}>
        <p>Check that the link was copied in full.</p>
      </EmptyState>
    </div>
  );
}
