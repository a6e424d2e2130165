import "server-only";
import { processWide } from "../process-wide";
import { getDb, sqliteSizes } from "../db";
import { pgStore } from "./pg-store";
import { WorkerReads } from "./sqlite-reader";
import { sqliteStore } from "./sqlite-store";
import { WorkerWrites } from "./sqlite-writer";
import type { Store } from "./types";

// One per process like the database handle, so neither another layer nor a development reload
// starts another worker.
const current = processWide("store", () => ({ store: undefined as Store | undefined }));

/** The hot-path store for this process's database. On SQLite its reads and its appends run on worker threads. */
export function getStore(): Store {
  let store = current.store;
  if (!store) {
    const db = getDb();
    if (db.sqlite) {
      const sizes = sqliteSizes();
      store = sqliteStore(new WorkerReads(db.sqlite.file, sizes), new WorkerWrites(db.sqlite.file, sizes, db.sqlite.exclusive));
    } else if (db.pg) {
      store = pgStore(db.pg);
    } else {
      throw new Error(`no hot-path store for a ${db.kind} database`);
    }
    current.store = store;
  }
  return store;
}

/** Stops the store's own machinery (before closing the database, in scripts and tests). */
export async function closeStore(): Promise<void> {
  const s = current.store;
  current.store = undefined;
  await s?.close();
}
