"use client";
// "Check your file": the visitor drops or picks a file, it is hashed (SHA-256, streamed in
// 4 MiB slices, in a Web Worker) on their device, and the digest is compared with the
// protection's. The file is never uploaded.
import { useId, useRef, useState, type DragEvent } from "react";
import { hashFile } from "./hash-file";
import { Mono, cx } from "./ui";

type State =
  | { phase: "idle" }
  | { phase: "hashing"; name: string; done: number; total: number }
  | { phase: "done"; name: string; hex: string }
  | { phase: "error"; message: string };

export function FileCheck({ contentHash }: { contentHash: string }) {
  const id = useId();
  const inputId = `${id}-file`;
  const hintId = `${id}-hint`;
  const [state, setState] = useState<State>({ phase: "idle" });
  const [dragging, setDragging] = useState(false);
  const run = useRef<AbortController | null>(null);
  const expected = contentHash.toLowerCase();

  async function check(file: File | undefined) {
    if (!file) return;
    // A newer file replaces the one being hashed: stop that one's worker.
    run.current?.abort();
    const mine = new AbortController();
    run.current = mine;
    setState({ phase: "hashing", name: file.name, done: 0, total: file.size });
    try {
      const hex = await hashFile(file, {
        signal: mine.signal,
        onProgress: (done, total) => {
          if (run.current === mine) setState({ phase: "hashing", name: file.name, done, total });
        },
      });
      if (run.current === mine) setState({ phase: "done", name: file.name, hex });
    } catch (e) {
      if (run.current === mine) setState({ phase: "error", message: (e as Error).message });
    }
  }

  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setDragging(false);
    void check(e.dataTransfer?.files?.[0]);
  }

  const matches = state.phase === "done" && state.hex === expected;
  const percent = state.phase === "hashing" && state.total > 0 ? Math.floor((state.done / state.total) * 100) : 0;

  return (
    <div>
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
          type="file"
          className="peer sr-only"
          aria-label="Check your file"
          aria-describedby={hintId}
          onChange={(e) => {
            void check(e.target.files?.[0]);
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
          <span className="text-base font-semibold text-stone-900">Check your file</span>
          <span id={hintId} aria-hidden="true" className="max-w-sm text-sm text-stone-700">
            Drop a file here or click to choose one. It is hashed on your device and never leaves your browser.
          </span>
        </label>
      </div>

      <div role="status" aria-live="polite" className="mt-4">
        {state.phase === "hashing" ? (
          <div className="rounded-xl border border-stone-200 bg-white px-4 py-3 text-sm text-stone-800">
            <p>
              Hashing <span className="break-all font-medium">{state.name}</span> on your device… {percent}%
            </p>
            <div aria-hidden className="mt-2 h-2 overflow-hidden rounded-full bg-stone-200">
              <div className="h-full bg-teal-700 transition-[width]" style={{ width: `${percent}%` }} />
            </div>
          </div>
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
