// What both lists of /check (the protections of the bytes, the similar pictures) share: the
// lookup's answer they show, and what they end their items and themselves with.
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import type { AppRouter } from "@/server/api/root";
import { textLink } from "../_components/ui";

/** GET /v1/lookup's answer, by the exact bytes or by a picture's PDQ hash. */
export type Lookup = inferRouterOutputs<AppRouter>["public"]["lookup"];

export function VerifyLink({ item }: { item: { verify_url: string; creator: { name: string } } }) {
  return (
    <Link className={textLink} href={new URL(item.verify_url).pathname} aria-label={`Verify ${item.creator.name}'s protection`}>
      Verify
    </Link>
  );
}

/** "The first 100 of 1,234 are shown." when the page holds fewer than all. */
export function ShownOf({ shown, total, which }: { shown: number; total: number; which: "first" | "nearest" }) {
  if (total <= shown) return null;
  return (
    <p className="mt-2 text-sm text-stone-700">
      The {which} {shown} of {total.toLocaleString("en")} are shown.
    </p>
  );
}
