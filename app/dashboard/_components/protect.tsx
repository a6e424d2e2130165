"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState, type DragEvent, type FormEvent } from "react";
import { Alert, Button, Field, Input, Mono, Select, Textarea, cx } from "@/app/_components/ui";
import { errorInfo, useTRPC, useTRPCClient } from "@/app/_trpc/client";
import { CATEGORIES, CATEGORY_LABELS, formatBytes, guessCategory, titleFromFileName, type Category, type Visibility } from "@/app/_components/categories";
import { hashFile } from "@/app/_components/hash-file";
import { ProtectResult } from "./protect-result";
import type { MintView } from "./protect-types";

/** Files hashed at the same time; more would only compete for the same disk. */
const PARALLEL_HASHES = 2;
/** Progress re-renders at most this often per file. */
const PROGRESS_INTERVAL_MS = 120;

type Phase = "queued" | "hashing" | "cancelled" | "hash-failed" | "hashed" | "minting" | "mint-failed" | "protected";

interface FormValues {
  title: string;
  description: string;
  category: Category;
  visibility: Visibility;
}

interface Item {
  key: string;
  name: string;
  size: number;
  type: string;
  /** One per file, sent with every attempt: a double click or a retry cannot mint twice. */
  idempotencyKey: string;
  phase: Phase;
  loaded: number;
  startedAt: number | null;
  finishedAt: number | null;
  hash: string | null;
  hashError: string | null;
  form: FormValues;
  result: MintView | null;
  mintError: { message: string; code: string | null; fields: Record<string, string> } | null;
}

/** A v4 UUID; crypto.randomUUID exists only on secure origins, getRandomValues everywhere. */
function randomUuid(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// What the server accepts (server/api/routers/consumer.types.ts); anything else is left out
// rather than failing the mint over a detail the browser reported.
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function mintBody(item: Item) {
  const title = item.form.title.trim();
  const description = item.form.description.trim();
  return {
    content_hash: item.hash,
    title: title || null,
    description: description || null,
    category: item.form.category,
    visibility: item.form.visibility,
    file_name: item.name && item.name.length <= 255 && !CONTROL.test(item.name) ? item.name : null,
    file_size: item.size,
    content_type: MIME.test(item.type) ? item.type : null,
  };
}

const speedOf = (bytes: number, ms: number) => (ms > 0 ? bytes / 1e6 / (ms / 1000) : 0);
const formatSpeed = (mbps: number) => `${mbps >= 100 ? Math.round(mbps) : mbps.toFixed(1)} MB/s`;

function ProgressBar({ item, now }: { item: Item; now: number }) {
  const pct = item.size === 0 ? (item.phase === "hashing" ? 0 : 100) : Math.floor((item.loaded / item.size) * 100);
  const speed = item.startedAt ? speedOf(item.loaded, (item.finishedAt ?? now) - item.startedAt) : 0;
  const text = item.phase === "queued" ? "Waiting for another file to finish" : `${pct}% · ${formatBytes(item.loaded)} of ${formatBytes(item.size)}${speed > 0 ? ` · ${formatSpeed(speed)}` : ""}`;
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

function MintForm({ item, onChange, onProtect }: { item: Item; onChange: (form: Partial<FormValues>) => void; onProtect: () => void }) {
  const id = (name: string) => `${item.key}-${name}`;
  const busy = item.phase === "minting";
  const fields = item.mintError?.fields ?? {};
  const describedBy = (name: string, hint = false) => (fields[name] ? `${id(name)}-error` : hint ? `${id(name)}-hint` : undefined);
  function submit(e: FormEvent) {
    e.preventDefault();
    onProtect();
  }
  return (
    <form onSubmit={submit} className="mt-5 space-y-4" aria-label={`Details for ${item.name}`}>
      <fieldset disabled={busy} className="grid gap-4 md:grid-cols-2">
        <Field label="Title" id={id("title")} error={fields.title}>
          <Input id={id("title")} value={item.form.title} maxLength={200} onChange={(e) => onChange({ title: e.target.value })} aria-describedby={describedBy("title")} aria-invalid={fields.title ? true : undefined} />
        </Field>
        <Field label="Category" id={id("category")} error={fields.category}>
          <Select id={id("category")} value={item.form.category} onChange={(e) => onChange({ category: e.target.value as Category })} aria-describedby={describedBy("category")}>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_LABELS[c]}
              </option>
            ))}
          </Select>
        </Field>
        <div className="md:col-span-2">
          <Field label="Description" id={id("description")} error={fields.description} hint="Optional. What it is, how you made it.">
            <Textarea id={id("description")} rows={2} value={item.form.description} maxLength={5000} onChange={(e) => onChange({ description: e.target.value })} aria-describedby={describedBy("description", true)} aria-invalid={fields.description ? true : undefined} />
          </Field>
        </div>
        <fieldset className="md:col-span-2">
          <legend className="text-sm font-medium text-stone-800">Visibility</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {(
              [
                ["private", "Private", "Only the hash and date are public (they are in the log). Title and details stay with you."],
                ["public", "Public", "Shown on your public portfolio, with its title, description and file name."],
              ] as const
            ).map(([value, label, hint]) => (
              <label
                key={value}
                className={cx(
                  "flex cursor-pointer gap-3 rounded-lg border px-3 py-2.5 text-sm has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-teal-700",
                  item.form.visibility === value ? "border-teal-700 bg-teal-50" : "border-stone-300 bg-white hover:bg-stone-50",
                )}
              >
                <input
                  type="radio"
                  name={id("visibility")}
                  value={value}
                  checked={item.form.visibility === value}
                  onChange={() => onChange({ visibility: value })}
                  aria-labelledby={id(`${value}-label`)}
                  aria-describedby={id(`${value}-hint`)}
                  className="mt-0.5 accent-teal-800 focus:outline-none"
                />
                <span>
                  <span id={id(`${value}-label`)} className="block font-medium text-stone-900">{label}</span>
                  <span id={id(`${value}-hint`)} className="block text-stone-700">{hint}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      </fieldset>
      {item.mintError ? (
        <Alert title={item.mintError.code === "quota_exceeded" ? "Monthly quota reached" : "Could not protect this file"}>
          {item.mintError.message}
          {item.mintError.code ? <span className="sr-only"> (code {item.mintError.code})</span> : null}
        </Alert>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={busy} aria-describedby={`${item.key}-protect-note`}>
          {busy ? "Protecting…" : item.phase === "mint-failed" ? "Try again" : "Protect"}
        </Button>
        <p id={`${item.key}-protect-note`} className="text-xs text-stone-600">
          Sends the hash and these details; the file stays here.
        </p>
      </div>
    </form>
  );
}

function FileCard({
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
              {item.size >= 8e6 && hashedIn > 0 ? ` in ${(hashedIn / 1000).toFixed(1)} s (${formatSpeed(speedOf(item.size, hashedIn))})` : ""}. The file was not uploaded.
            </p>
          </div>
        ) : null}

        {item.phase === "hashed" || item.phase === "minting" || item.phase === "mint-failed" ? <MintForm item={item} onChange={onChange} onProtect={onProtect} /> : null}

        {item.phase === "protected" && item.result ? <ProtectResult result={item.result} fileName={item.name} focusOnMount={focusResult} /> : null}
      </section>
    </li>
  );
}

/** The Protect page's working part: pick or drop files, hash them here, mint the hashes. */
export function Protector() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [items, setItems] = useState<Item[]>([]);
  const [dragging, setDragging] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const itemsRef = useRef<Item[]>([]);
  const files = useRef(new Map<string, File>());
  const pending = useRef<string[]>([]);
  const running = useRef(new Map<string, AbortController>());
  const lastTick = useRef(new Map<string, number>());
  const minting = useRef(new Set<string>());

  useEffect(() => {
    itemsRef.current = items;
  }, [items]);

  const update = useCallback((key: string, patch: Partial<Item> | ((i: Item) => Partial<Item>)) => {
    setItems((prev) => prev.map((i) => (i.key === key ? { ...i, ...(typeof patch === "function" ? patch(i) : patch) } : i)));
  }, []);

  // Hashing ends with the page.
  useEffect(() => {
    const hashes = running.current;
    return () => {
      for (const c of hashes.values()) c.abort();
      hashes.clear();
    };
  }, []);

  // The speed shown keeps moving while something hashes.
  const hashing = items.some((i) => i.phase === "hashing");
  useEffect(() => {
    if (!hashing) return;
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, [hashing]);

  // Leaving while a file hashes, or before a hashed file is protected, would lose that work.
  const unsaved = items.some((i) => i.phase === "hashing" || i.phase === "queued" || i.phase === "hashed" || i.phase === "minting");
  useEffect(() => {
    if (!unsaved) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [unsaved]);

  const pump = useCallback(() => {
    while (running.current.size < PARALLEL_HASHES && pending.current.length > 0) {
      const key = pending.current.shift()!;
      const file = files.current.get(key);
      if (!file) continue;
      const controller = new AbortController();
      running.current.set(key, controller);
      const startedAt = Date.now();
      update(key, { phase: "hashing", loaded: 0, startedAt, finishedAt: null, hashError: null });
      const onProgress = (loaded: number) => {
        const t = Date.now();
        if (t - (lastTick.current.get(key) ?? 0) < PROGRESS_INTERVAL_MS) return;
        lastTick.current.set(key, t);
        update(key, { loaded });
        setNow(t);
      };
      hashFile(file, { signal: controller.signal, onProgress })
        .then(
          (hash) => update(key, { phase: "hashed", loaded: file.size, hash, finishedAt: Date.now() }),
          (err: Error) => {
            // A cancelled hash was already marked by whoever cancelled it.
            if (!controller.signal.aborted) update(key, { phase: "hash-failed", hashError: err.message, finishedAt: Date.now() });
          },
        )
        .finally(() => {
          if (running.current.get(key) === controller) running.current.delete(key);
          lastTick.current.delete(key);
          pump();
        });
    }
  }, [update]);

  const addFiles = useCallback((list: FileList | File[]) => {
    const added: Item[] = Array.from(list).map((file) => {
      const key = `f${randomUuid().slice(0, 8)}`;
      files.current.set(key, file);
      pending.current.push(key);
      return {
        key,
        name: file.name,
        size: file.size,
        type: file.type,
        idempotencyKey: randomUuid(),
        phase: "queued",
        loaded: 0,
        startedAt: null,
        finishedAt: null,
        hash: null,
        hashError: null,
        form: { title: titleFromFileName(file.name), description: "", category: guessCategory(file), visibility: "private" },
        result: null,
        mintError: null,
      };
    });
    if (added.length === 0) return;
    setItems((prev) => [...prev, ...added]);
    pump();
  }, [pump]);

  // A file dropped beside the drop zone is taken too, instead of the browser opening it and
  // leaving the page.
  useEffect(() => {
    const over = (e: globalThis.DragEvent) => {
      if (e.dataTransfer?.types.includes("Files")) e.preventDefault();
    };
    const drop = (e: globalThis.DragEvent) => {
      if (e.defaultPrevented || !e.dataTransfer?.files.length) return;
      e.preventDefault();
      addFiles(e.dataTransfer.files);
    };
    window.addEventListener("dragover", over);
    window.addEventListener("drop", drop);
    return () => {
      window.removeEventListener("dragover", over);
      window.removeEventListener("drop", drop);
    };
  }, [addFiles]);

  function stop(key: string) {
    pending.current = pending.current.filter((k) => k !== key);
    const controller = running.current.get(key);
    if (controller) {
      running.current.delete(key);
      controller.abort(); // the hash's own finally starts the next queued file
    }
  }

  function cancel(key: string) {
    stop(key);
    update(key, { phase: "cancelled", loaded: 0 });
  }

  function remove(key: string) {
    stop(key);
    files.current.delete(key);
    setItems((prev) => prev.filter((i) => i.key !== key));
  }

  function retry(key: string) {
    pending.current.push(key);
    update(key, { phase: "queued", loaded: 0, hashError: null });
    pump();
  }

  async function protect(key: string) {
    const item = itemsRef.current.find((i) => i.key === key);
    if (!item || !item.hash || minting.current.has(key) || item.phase === "protected") return;
    minting.current.add(key);
    update(key, { phase: "minting", mintError: null });
    try {
      const res = await client.consumer.mint.mutate({ body: mintBody(item), idempotency_key: item.idempotencyKey });
      update(key, { phase: "protected", result: res.body });
      void queryClient.invalidateQueries(trpc.consumer.pathFilter());
    } catch (err) {
      const { message, code } = errorInfo(err);
      const fields = (err as { data?: { fieldErrors?: Record<string, string> | null } }).data?.fieldErrors ?? {};
      update(key, { phase: "mint-failed", mintError: { message, code, fields } });
    } finally {
      minting.current.delete(key);
    }
  }

  async function protectAll() {
    setFocusKey(null);
    const ready = itemsRef.current.filter((i) => i.phase === "hashed" || i.phase === "mint-failed").map((i) => i.key);
    // One after another: the list then shows them in the order they are listed here.
    for (const key of ready) await protect(key);
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length) addFiles(e.dataTransfer.files);
  }

  const ready = items.filter((i) => i.phase === "hashed" || i.phase === "mint-failed").length;
  const protectedCount = items.filter((i) => i.phase === "protected").length;
  const inFlight = items.some((i) => i.phase === "minting");

  return (
    <div className="space-y-6">
      <div
        onDragEnter={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = "copy";
        }}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
        className={cx(
          "rounded-2xl border-2 border-dashed px-5 py-10 text-center transition-colors sm:px-10",
          dragging ? "border-teal-700 bg-teal-50" : "border-stone-300 bg-white",
        )}
      >
        <div aria-hidden className="mx-auto mb-3 grid h-12 w-12 place-items-center rounded-full bg-teal-100 text-teal-800">
          <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" className="h-6 w-6">
            <path d="M12 16V4m0 0-4.5 4.5M12 4l4.5 4.5M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" />
          </svg>
        </div>
        <p className="text-lg font-medium">Drop files here to protect them</p>
        <p className="mt-1 text-sm text-stone-700">Any type, any size, several at once. Large videos are fine: they are read in small pieces.</p>
        <div className="mx-auto mt-5 max-w-sm text-left">
          <label htmlFor="choose-files" className="block text-sm font-medium text-stone-800">
            Choose files
          </label>
          <input
            id="choose-files"
            type="file"
            multiple
            onChange={(e) => {
              if (e.target.files) addFiles(e.target.files);
              e.target.value = "";
            }}
            className="mt-1 block w-full rounded-lg border border-stone-300 bg-white text-sm text-stone-700 file:mr-3 file:cursor-pointer file:rounded-l-lg file:border-0 file:bg-teal-800 file:px-4 file:py-2 file:text-sm file:font-medium file:text-white hover:file:bg-teal-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
          />
        </div>
      </div>


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
              onChange={(form) => update(item.key, (i) => ({ form: { ...i.form, ...form } }))}
              onProtect={() => {
                setFocusKey(item.key);
                void protect(item.key);
              }}
            />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
