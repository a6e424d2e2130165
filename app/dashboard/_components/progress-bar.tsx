import { formatBytes } from "@/app/_components/categories";
import { formatSpeed, speedOf, type Item } from "./protect-item";

export function ProgressBar({ item, now }: { item: Item; now: number }) {
  const pct = item.size === 0 ? (item.phase === "hashing" ? 0 : 100) : Math.floor((item.loaded / item.size) * 100);
  const speed = item.startedAt ? speedOf(item.loaded, (item.finishedAt ?? now) - item.startedAt) : 0;
  const text =
    item.phase === "queued"
      ? "Waiting for another file to finish"
      : `${pct}% · ${formatBytes(item.loaded)} of ${formatBytes(item.size)}${speed > 0 ? ` · ${formatSpeed(speed)}` : ""}`;
  return (
    <div className="mt-4">
      <div
        role="progressbar"
        aria-label={`Hashing ${item.name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={text}
        className="h-2.5 w-full overflow-hidden rounded-full bg-stone-200"
      >
        <div className="h-full rounded-full bg-teal-700 transition-[width] duration-150" style={{ width: `${pct}%` }} />
      </div>
      <p className="mt-2 text-sm tabular-nums text-stone-700">{text}</p>
    </div>
  );
}
