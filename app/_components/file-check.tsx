"use client";
// "Check your file": the visitor drops or picks a file, it is hashed on their device, and the
// digest is compared with the protection's. The file is never uploaded.
import { FileDropZone, HashingProgress, useFileHash } from "./file-drop";
import { Mono, cx } from "./ui";

export function FileCheck({ contentHash }: { contentHash: string }) {
  const { state, hash } = useFileHash();
  const matches = state.phase === "done" && state.hex === contentHash.toLowerCase();
  return (
    <div>
      <FileDropZone
        label="Check your file"
        hint="Drop a file here or click to choose one. It is hashed on your device and never leaves your browser."
        onFile={hash}
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
            <p className="mt-2 text-sm">
              <span className="break-all">{state.name}</span>: <Mono>sha256:{state.hex}</Mono>
            </p>
          </div>
        ) : state.phase === "error" ? (
          <p className="rounded-xl border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">{state.message}</p>
        ) : null}
      </div>
    </div>
  );
}
