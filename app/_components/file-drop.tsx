"use client";
// Dropping or picking a file and hashing it on the visitor's device (SHA-256 in a Web Worker,
// streamed in slices, and PDQ of an image), shared by "Check your file" and "Who protected this file?". The file is
// never uploaded.
import { useId, useRef, useState, type DragEvent } from "react";
import { useFilesPickedEarly } from "./files-picked-early";
import { type FileDigest, hashFile } from "./hash-file";
import { cx } from "./ui";

export type HashState =
  | { phase: "idle" }
  | { phase: "hashing"; name: string; done: number; total: number }
  | ({ phase: "done"; name: string; hex: string } & Omit<FileDigest, "sha256">)
  | { phase: "error"; message: string };

/** The state of the newest file's hash; a newer file stops the previous one's worker. */
export function useFileHash(onHashed?: (digest: FileDigest) => void): { state: HashState; hash: (file: File | undefined) => void } {
  const [state, setState] = useState<HashState>({ phase: "idle" });
  const run = useRef<AbortController | null>(null);
  async function hash(file: File | undefined) {
    if (!file) return;
    run.current?.abort();
    const mine = new AbortController();
    run.current = mine;
    setState({ phase: "hashing", name: file.name, done: 0, total: file.size });
    try {
      const digest = await hashFile(file, {
        signal: mine.signal,
        onProgress: (done, total) => {
          if (run.current === mine) setState({ phase: "hashing", name: file.name, done, total });
        },
      });
      if (run.current !== mine) return;
      setState({ phase: "done", name: file.name, hex: digest.sha256, pdq: digest.pdq, pdqNote: digest.pdqNote });
      onHashed?.(digest);
    } catch (e) {
      if (run.current === mine) setState({ phase: "error", message: (e as Error).message });
    }
  }
  return { state, hash: (file) => void hash(file) };
}

/** A drop zone that is also a file input (keyboard and screen readers use the input). */
export function FileDropZone({ label, hint, onFile }: { label: string; hint: string; onFile: (file: File | undefined) => void }) {
  const id = useId();
  const inputId = `${id}-file`;
  const hintId = `${id}-hint`;
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useFilesPickedEarly(input, (files) => onFile(files[0]));
  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setDragging(false);
    onFile(e.dataTransfer?.files?.[0]);
  }
  return (
    <div
      data-testid="file-drop-zone"
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      className={cx(
        "relative rounded-2xl border-2 border-dashed transition-colors",
        dragging ? "border-teal-700 bg-teal-50" : "border-stone-300 bg-stone-50",
      )}
    >
      <input
        id={inputId}
        ref={input}
        type="file"
        className="peer sr-only"
        aria-label={label}
        aria-describedby={hintId}
        onChange={(e) => {
          onFile(e.target.files?.[0]);
          e.target.value = "";
        }}
      />
      <label
        htmlFor={inputId}
        className="flex cursor-pointer flex-col items-center gap-2 rounded-2xl px-4 py-8 text-center peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-teal-700"
      >
        <span aria-hidden className="grid h-10 w-10 place-items-center rounded-full bg-teal-800 text-lg text-white">
          ⇪
        </span>
        <span className="text-base font-semibold text-stone-900">{label}</span>
        <span id={hintId} aria-hidden="true" className="max-w-sm text-sm text-stone-700">
          {hint}
        </span>
      </label>
    </div>
  );
}

/** "Hashing <name> on your device… 42%" with a bar. */
export function HashingProgress({ name, done, total }: { name: string; done: number; total: number }) {
  const percent = total > 0 ? Math.floor((done / total) * 100) : 0;
  return (
    <div className="rounded-xl border border-stone-200 bg-white px-4 py-3 text-sm text-stone-800">
      <p>
        Hashing <span className="break-all font-medium">{name}</span> on your device… {percent}%
      </p>
      <div aria-hidden className="mt-2 h-2 overflow-hidden rounded-full bg-stone-200">
        <div className="h-full bg-teal-700 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
