"use client";
import { Alert, Button } from "./_components/ui";

/**
 * A page that failed to render: a plain message and a retry, in the app's own look (Next.js's
 * built-in error page uses inline styles, which the CSP refuses). The details stay in the server log.
 */
export default function PageError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="mb-6 text-3xl font-semibold tracking-tight">Something went wrong</h1>
      <Alert title="This page could not be shown">
        <p>An error occurred on our side. Please try again in a moment.</p>
        <Button variant="secondary" className="mt-3" onClick={() => reset()}>
          Try again
        </Button>
      </Alert>
    </div>
  );
}
