// Server-side reads for the visitor pages (verify, share, portfolio): the public tRPC
// procedures through a caller without a principal, with "not found" mapped to Next's 404.
import "server-only";
import { cache } from "react";
import { createContext } from "@/server/api/context";
import { createCaller } from "@/server/api/root";
import { orNotFound } from "@/server/auth/page-viewer";

const caller = () => createCaller(createContext(null));

/** A protection as anyone may see it (cached per request: metadata and page share one read). */
export const loadPublicProtection = cache((id: string) => orNotFound(caller().public.protection({ id })));

export type PublicProtection = Awaited<ReturnType<typeof loadPublicProtection>>;

export const PORTFOLIO_PAGE_SIZE = 12;

/** One page of a creator's public work, newest first. */
export const loadPortfolio = cache((userId: string, offset: number) =>
  orNotFound(caller().public.portfolio({ id: userId, limit: String(PORTFOLIO_PAGE_SIZE), offset: String(offset) })),
);
