import "server-only";
import { getDb } from "../db";
import { pgStore } from "./pg-store";
import { WorkerReads } from "./sqlite-reader";
import { sqliteStore } from "./sqlite-store";
import type { Store } from "./types";

// On globalThis like the database handle, so a development reload does not start another worker.
const globalRef = globalThis as unknown as { __hallmarkStore?: Store };

/** The hot-path store for this process's database. On SQLite its reads run on a worker thread. */
export function getStore(): Store {
  let store = globalRef.__hallmarkStore;
  if (!store) {
    const db = getDb();
    if (db.sqlite) {
      store = sqliteStore({ ...db, sqlite: db.sqlite }, new WorkerReads(db.sqlite.file));
    } else if (db.pg) {
      store = pgStore(db.pg);
    } else {
      throw new Error(`no hot-path store for a ${db.kind} database`);
    }
    globalRef.__hallmarkStore = store;
  }
  return store;
}

/** Stops the store's own machinery (before closing the database, in scripts and tests). */
export async function closeStore(): Promise<void> {
  const s = globalRef.__hallmarkStore;
  globalRef.__hallmarkStore = undefined;
  await s?.close();
}
