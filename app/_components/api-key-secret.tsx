import type { RefObject } from "react";
import { CopyButton } from "./copy-button";
import { Button, Mono } from "./ui";

/** A key just created: its secret, shown this once, with a copy button. */
export function ApiKeySecret({
  name,
  secret,
  headingRef,
  onDone,
}: {
  name: string;
  secret: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onDone: () => void;
}) {
  return (
    <section aria-labelledby="new-key-heading" className="rounded-2xl border-2 border-teal-700 bg-teal-50 p-5 shadow-sm sm:p-6">
      <h2 id="new-key-heading" ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-teal-950 focus:outline-none">
        Your new key “{name}”
      </h2>
      <p className="mt-1 font-medium text-teal-950">Copy this key now — it will not be shown again.</p>
      <p className="mt-1 text-sm text-stone-800">
        We keep only a keyed hash of it. Send it in the <Mono>X-API-Key</Mono> header of every request to <Mono>/v1</Mono>. If you lose it,
        revoke it and create another.
      </p>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-center">
        <div className="min-w-0 flex-1 rounded-lg border border-teal-300 bg-white px-3 py-2.5">
          <Mono className="select-all text-base text-stone-900">
            <span data-testid="new-api-key">{secret}</span>
          </Mono>
        </div>
        <div className="flex gap-2">
          <CopyButton value={secret} label="Copy key" />
          <Button variant="ghost" onClick={onDone}>
            Done
          </Button>
        </div>
      </div>
    </section>
  );
}
