import { Alert, Button, Mono } from "@/app/_components/ui";
import { formatBytes } from "@/app/_components/categories";
import { MintForm } from "./mint-form";
import { ProgressBar } from "./progress-bar";
import { ProtectResult } from "./protect-result";
import { formatSpeed, speedOf, type FormValues, type Item } from "./protect-item";

export function FileCard({
  item,
  now,
  focusResult,
  onCancel,
  onRemove,
  onRetry,
  onChange,
  onProtect,
}: {
  item: Item;
  now: number;
  focusResult: boolean;
  onCancel: () => void;
  onRemove: () => void;
  onRetry: () => void;
  onChange: (form: Partial<FormValues>) => void;
  onProtect: () => void;
}) {
  const headingId = `${item.key}-name`;
  const running = item.phase === "queued" || item.phase === "hashing";
  const hashedIn = item.startedAt && item.finishedAt ? item.finishedAt - item.startedAt : 0;
  return (
    <li>
      <section aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 id={headingId} className="break-all text-lg font-semibold">
              {item.name}
            </h2>
            <p className="text-sm text-stone-600">
              {formatBytes(item.size)}
              {item.type ? ` · ${item.type}` : ""}
            </p>
          </div>
          {running ? (
            <Button variant="secondary" onClick={onCancel} aria-label={`Cancel hashing ${item.name}`}>
              Cancel
            </Button>
          ) : item.phase !== "minting" ? (
            <Button variant="ghost" onClick={onRemove} aria-label={`Remove ${item.name} from this list`}>
              {item.phase === "protected" ? "Dismiss" : "Remove"}
            </Button>
          ) : null}
        </div>

        {running ? <ProgressBar item={item} now={now} /> : null}

        {item.phase === "cancelled" ? (
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <p role="status" className="text-sm text-stone-700">
              Hashing cancelled.
            </p>
            <Button variant="secondary" onClick={onRetry}>
              Hash again
            </Button>
          </div>
        ) : null}

        {item.phase === "hash-failed" ? (
          <div className="mt-4 space-y-3">
            <Alert title="Could not hash this file">{item.hashError}</Alert>
            <Button variant="secondary" onClick={onRetry}>
              Try again
            </Button>
          </div>
        ) : null}

        {item.hash ? (
          <div className="mt-4 rounded-lg bg-stone-100 px-3 py-2">
            <p className="text-xs font-medium uppercase tracking-wide text-stone-600">SHA-256 fingerprint</p>
            <Mono className="text-stone-900">{item.hash}</Mono>
            <p className="mt-1 text-xs text-stone-600">
              Computed in your browser
              {item.size >= 8e6 && hashedIn > 0
                ? ` in ${(hashedIn / 1000).toFixed(1)} s (${formatSpeed(speedOf(item.size, hashedIn))})`
                : ""}
              . The file was not uploaded.
            </p>
          </div>
        ) : null}

        {item.phase === "hashed" || item.phase === "minting" || item.phase === "mint-failed" ? (
          <MintForm item={item} onChange={onChange} onProtect={onProtect} />
        ) : null}

        {item.phase === "protected" && item.result ? (
          <ProtectResult result={item.result} fileName={item.name} focusOnMount={focusResult} />
        ) : null}
      </section>
    </li>
  );
}
