"use client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpLink, splitLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import { isUnbatchable, MAX_BATCH_CALLS } from "@/server/api/batching";
import type { AppRouter } from "@/server/api/root";
import { RequestFailure, trpcFetch } from "@/lib/request-failure";

export { errorInfo } from "@/lib/request-failure";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** The Idempotency-Key header of a call whose context names one (`{ context: { idempotencyKey } }`). */
function idempotencyHeader(context: Record<string, unknown>): Record<string, string> {
  const key = context.idempotencyKey;
  return typeof key === "string" ? { "idempotency-key": key } : {};
}

function retryable(err: unknown): boolean {
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof RequestFailure) return cause.status === null || cause.status >= 500;
  return ((err as { data?: { httpStatus?: number } }).data?.httpStatus ?? 500) >= 500;
}

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // A 4xx will not get better by asking again; a 5xx or a lost connection might.
        retry: (count, err) => count < 2 && retryable(err),
      },
    },
  });
}

/** React Query and the tRPC client for every client component under the root layout. */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  // Within the endpoint's batch limits: account calls alone, others at most MAX_BATCH_CALLS a
  // request. Answers that are not tRPC's (the gate's refusals, a proxy's error page, no answer)
  // fail with a RequestFailure in words (lib/request-failure.ts).
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          condition: (op) => isUnbatchable(op.path),
          // A call sent alone may carry an Idempotency-Key (a mint's), given in its context.
          true: httpLink({ url: "/api/trpc", fetch: trpcFetch, headers: ({ op }) => idempotencyHeader(op.context) }),
          false: httpBatchLink({ url: "/api/trpc", fetch: trpcFetch, maxItems: MAX_BATCH_CALLS }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
