"use client";
import { Button } from "@/app/_components/ui";
import { DropZone } from "./drop-zone";
import { FileCard } from "./file-card";
import { useProtectQueue } from "./use-protect-queue";

/** The Protect page's working part: pick or drop files, hash them here, mint the hashes. */
export function Protector() {
  const { items, now, focusKey, addFiles, cancel, remove, retry, changeForm, protectOne, protectAll } = useProtectQueue();

  const ready = items.filter((i) => i.phase === "hashed" || i.phase === "mint-failed").length;
  const protectedCount = items.filter((i) => i.phase === "protected").length;
  const inFlight = items.some((i) => i.phase === "minting");

  return (
    <div className="space-y-6">
      <DropZone onFiles={addFiles} />

      {items.length > 0 ? (
        <div className="flex flex-col gap-3 rounded-2xl border border-stone-200 bg-white px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-stone-700" aria-live="polite">
            {items.length} {items.length === 1 ? "file" : "files"} · {ready} ready to protect · {protectedCount} protected
          </p>
          {ready > 1 ? (
            <Button onClick={protectAll} disabled={inFlight}>
              Protect all
            </Button>
          ) : null}
        </div>
      ) : null}

      {items.length > 0 ? (
        <ul className="space-y-4" aria-label="Files">
          {items.map((item) => (
            <FileCard
              key={item.key}
              item={item}
              now={now}
              focusResult={focusKey === item.key}
              onCancel={() => cancel(item.key)}
              onRemove={() => remove(item.key)}
              onRetry={() => retry(item.key)}
              onChange={(form) => changeForm(item.key, form)}
              onProtect={() => protectOne(item.key)}
            />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
