"use client";
import { errorInfo } from "../_trpc/client";
import { Alert, Button } from "./ui";

/** A list or page that could not be loaded: why, and a way to try again. */
export function LoadError({ title, error, retry }: { title: string; error: unknown; retry: () => unknown }) {
  return (
    <Alert title={title}>
      <p>{errorInfo(error).message}</p>
      <Button variant="secondary" className="mt-3" onClick={() => void retry()}>
        Try again
      </Button>
    </Alert>
  );
}
