"use client";
// "Check your file": the visitor drops or picks a file, it is hashed on their device, and the
// digest is compared with the protection's; where the bytes differ and both are pictures, their
// PDQ fingerprints say whether the visitor's looks like the protected one. The file is never
// uploaded.
import { pdqDistance, type PdqHash } from "@/lib/fingerprint/pdq";
import { PDQ_MATCH_DISTANCE, pdqMatchable } from "@/lib/fingerprint/pdq-index";
import { useState } from "react";
import { ContentCredentials } from "./content-credentials";
import { FileDropZone, HashingProgress, useFileHash } from "./file-drop";
import { Mono, cx } from "./ui";

/** What the pictures' fingerprints say when the bytes differ; null when they cannot say. */
function pictureVerdict(theirs: PdqHash | null, yours: PdqHash | null): string | null {
  if (!theirs || !yours) return null;
  if (!pdqMatchable(theirs.quality) || !pdqMatchable(yours.quality)) return "One of the pictures is too plain to be compared by its look.";
  const d = pdqDistance(theirs.hash, yours.hash);
  return d <= PDQ_MATCH_DISTANCE
    ? `But your picture looks like the protected one (PDQ distance ${d} of 256; ${PDQ_MATCH_DISTANCE} or less counts as similar): it may be a resized or re-encoded copy. Only the exact bytes are proven; a similar picture is not proof of copying.`
    : `Your picture does not look like the protected one either (PDQ distance ${d} of 256).`;
}

export function FileCheck({ contentHash, pdq = null }: { contentHash: string; pdq?: PdqHash | null }) {
  const { state, hash } = useFileHash();
  const [file, setFile] = useState<File | null>(null);
  const matches = state.phase === "done" && state.hex === contentHash.toLowerCase();
  const picture = state.phase === "done" && !matches ? pictureVerdict(pdq, state.pdq) : null;
  return (
    <div>
      <FileDropZone
        label="Check your file"
        hint="Drop a file here or click to choose one. It is hashed on your device and never leaves your browser."
        onFile={(f) => {
          setFile(f ?? null);
          hash(f);
        }}
      />
      <div role="status" aria-live="polite" className="mt-4">
        {state.phase === "hashing" ? (
          <HashingProgress {...state} />
        ) : state.phase === "done" ? (
          <div
            className={cx(
              "rounded-xl border px-4 py-3",
              matches ? "border-emerald-300 bg-emerald-50 text-emerald-950" : "border-amber-300 bg-amber-50 text-amber-950",
            )}
          >
            <p className="font-semibold">{matches ? "Your file matches this protection" : "Your file does not match this protection"}</p>
            <p className="mt-1 text-sm">
              {matches
                ? "Its bytes are exactly the ones that were attested."
                : "Its bytes differ from the attested ones: even a one-byte change, or a re-saved copy, gives a different hash."}
            </p>
            {picture ? (
              <p className="mt-1 text-sm" data-testid="picture-verdict">
                {picture}
              </p>
            ) : null}
            <p className="mt-2 text-sm">
              <span className="break-all">{state.name}</span>: <Mono>sha256:{state.hex}</Mono>
            </p>
          </div>
        ) : state.phase === "error" ? (
          <p className="rounded-xl border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">{state.message}</p>
        ) : null}
      </div>
      <ContentCredentials
        file={file}
        hallmark={
          state.phase === "done"
            ? matches
              ? "these exact bytes are this protection's file"
              : "these bytes are not this protection's file"
            : null
        }
      />
    </div>
  );
}
