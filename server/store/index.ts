import "server-only";
import { getDb } from "../db";
import { prismaStore } from "./prisma-store";
import { sqliteStore } from "./sqlite-store";
import type { Store } from "./types";

let store: Store | undefined;

/** The hot-path store for this process's database. */
export function getStore(): Store {
  if (!store) {
    const db = getDb();
    store = db.sqlite ? sqliteStore({ ...db, sqlite: db.sqlite }) : prismaStore(db);
  }
  return store;
}
