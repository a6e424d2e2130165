// Server-side reads for the visitor pages (verify, share, portfolio): the public tRPC
// procedures, with "not found" mapped to Next's 404. The verify and share pages read as the
// page's session, so a private protection's owner sees its pages (everyone else gets 404);
// Open Graph images, cached publicly, read without one.
import "server-only";
import { cache } from "react";
import { createContext } from "@/server/api/context";
import { createCaller } from "@/server/api/root";
import { orNotFound, pageCaller } from "@/server/pages/page-viewer";

const caller = () => createCaller(createContext(null));

/** A protection as anyone may see it: a public one (for images everyone is served alike). */
export const loadPublicProtection = cache((id: string) => orNotFound(caller().public.protection({ id })));

/** A protection as the page's viewer may see it: a public one, or their own private one (cached per request). */
export const loadViewedProtection = cache(async (id: string) => orNotFound((await pageCaller()).public.protection({ id })));

export type PublicProtection = Awaited<ReturnType<typeof loadPublicProtection>>;

export const PORTFOLIO_PAGE_SIZE = 12;

/** One page of a creator's public work, newest first. */
export const loadPortfolio = cache((userId: string, offset: number) =>
  orNotFound(caller().public.portfolio({ id: userId, limit: String(PORTFOLIO_PAGE_SIZE), offset: String(offset) })),
);
