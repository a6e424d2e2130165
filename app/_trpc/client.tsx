"use client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpLink, splitLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import { isUnbatchable, MAX_BATCH_CALLS } from "@/server/api/batching";
import type { AppRouter } from "@/server/api/root";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** The Idempotency-Key header of a call whose context names one (`{ context: { idempotencyKey } }`). */
function idempotencyHeader(context: Record<string, unknown>): Record<string, string> {
  const key = context.idempotencyKey;
  return typeof key === "string" ? { "idempotency-key": key } : {};
}

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // A 4xx will not get better by asking again; a 5xx or a lost connection might.
        retry: (count, err) => count < 2 && ((err as { data?: { httpStatus?: number } }).data?.httpStatus ?? 500) >= 500,
      },
    },
  });
}

/** React Query and the tRPC client for every client component under the root layout. */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  // Within the endpoint's batch limits: account calls alone, others at most MAX_BATCH_CALLS a request.
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          condition: (op) => isUnbatchable(op.path),
          // A call sent alone may carry an Idempotency-Key (a mint's), given in its context.
          true: httpLink({ url: "/api/trpc", headers: ({ op }) => idempotencyHeader(op.context) }),
          false: httpBatchLink({ url: "/api/trpc", maxItems: MAX_BATCH_CALLS }),
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

/** The message of a tRPC error for people, and its stable code (AppError's) for tests and logic. */
export function errorInfo(err: unknown): { message: string; code: string | null } {
  const e = err as { message?: string; data?: { appCode?: string | null } } | null;
  return { message: e?.message || "Something went wrong. Please try again.", code: e?.data?.appCode ?? null };
}
