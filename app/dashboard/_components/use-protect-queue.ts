// The Protect page's state machine: a queue of files hashed here (a few at a time, cancellable,
// with throttled progress) and the mint of each hash, one idempotency key per file.
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { errorInfo, useTRPC, useTRPCClient } from "@/app/_trpc/client";
import { hashFile } from "@/app/_components/hash-file";
import { mintBody, newItem, randomUuid, type FormValues, type Item } from "./protect-item";

/** Files hashed at the same time; more would only compete for the same disk. */
const PARALLEL_HASHES = 2;
/** Progress re-renders at most this often per file. */
const PROGRESS_INTERVAL_MS = 120;

export function useProtectQueue() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [items, setItems] = useState<Item[]>([]);
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
          (digest) => update(key, { phase: "hashed", loaded: file.size, hash: digest.sha256, pdq: digest.pdq, finishedAt: Date.now() }),
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

  const addFiles = useCallback(
    (list: FileList | File[]) => {
      const added: Item[] = Array.from(list).map((file) => {
        const key = `f${randomUuid().slice(0, 8)}`;
        files.current.set(key, file);
        pending.current.push(key);
        return newItem(key, file);
      });
      if (added.length === 0) return;
      setItems((prev) => [...prev, ...added]);
      pump();
    },
    [pump],
  );

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
      const res = await client.consumer.mint.mutate(mintBody(item, item.hash), { context: { idempotencyKey: item.idempotencyKey } });
      update(key, { phase: "protected", result: res.protection });
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

  function changeForm(key: string, form: Partial<FormValues>) {
    update(key, (i) => ({ form: { ...i.form, ...form } }));
  }

  /** The Protect button of one file: its result takes focus once it arrives. */
  function protectOne(key: string) {
    setFocusKey(key);
    void protect(key);
  }

  return { items, now, focusKey, addFiles, cancel, remove, retry, changeForm, protectOne, protectAll };
}
