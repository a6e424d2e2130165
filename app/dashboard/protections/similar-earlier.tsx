"use client";
// A protection's perceptual fingerprint, and the similar pictures protected publicly before it:
// what a creator checks before claiming a picture is theirs first (GET /v1/lookup?pdq=, the same
// answer a visitor gets: other creators' private protections are theirs alone, and never shown).
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button, Mono } from "@/app/_components/ui";
import { useTRPC } from "@/app/_trpc/client";
import { PDQ_MIN_MATCH_QUALITY } from "@/lib/fingerprint/pdq-index";
import type { ProtectionItem } from "../_components/protect-types";

const day = new Intl.DateTimeFormat("en", { dateStyle: "medium" });

export function SimilarEarlier({ p, name }: { p: ProtectionItem; name: string }) {
  const pdq = p.fingerprints.find((f) => f.alg === "pdq");
  const [open, setOpen] = useState(false);
  const trpc = useTRPC();
  const lookup = useQuery({ ...trpc.public.lookup.queryOptions({ pdq: pdq?.hash, limit: "100" }), enabled: open && Boolean(pdq) });
  if (!pdq) return null;
  const plain = pdq.quality < PDQ_MIN_MATCH_QUALITY;
  const earlier = lookup.data?.items.filter((i) => i.protection_id !== p.protection_id && i.protected_at < p.protected_at) ?? [];
  return (
    <div className="text-sm text-stone-600">
      <p>
        PDQ{" "}
        <span title={pdq.hash}>
          <Mono>{pdq.hash.slice(0, 16)}…</Mono>
        </span>{" "}
        (quality {pdq.quality}
        {plain ? ", too plain to be matched" : ""})
        {!plain && !open ? (
          <Button variant="secondary" className="ml-2 px-2 py-0.5 text-xs" onClick={() => setOpen(true)}>
            Similar works protected earlier<span className="sr-only"> than {name}</span>
          </Button>
        ) : null}
      </p>
      {open && !plain ? (
        <div role="status" aria-live="polite" className="mt-1" data-testid="similar-earlier">
          {lookup.isPending ? (
            "Looking for similar pictures protected earlier…"
          ) : lookup.isError ? (
            `The lookup failed: ${lookup.error.message}`
          ) : earlier.length === 0 ? (
            "No similar picture was protected publicly before this one."
          ) : (
            <>
              <p>Visually similar pictures protected publicly before this one (a similar picture is not proof of copying):</p>
              <ul className="mt-1 list-disc pl-5">
                {earlier.map((i) => (
                  <li key={i.protection_id}>
                    <a className="underline" href={i.verify_url}>
                      {i.title ? `“${i.title}”` : "A picture"}
                    </a>{" "}
                    by {i.creator.name}, {day.format(new Date(i.protected_at))}, PDQ distance {i.distance}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      ) : null}
    </div>
  );
}
