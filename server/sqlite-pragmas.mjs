// Settings every Hallmark connection to the SQLite file reads with: the database handle's
// connections (server/db.ts) and the read worker's (server/store/sqlite-reader.worker.mjs).
// Plain JavaScript, so the worker, which Next.js bundles as its own entry, can import it.
// cacheMb: HALLMARK_SQLITE_CACHE_MB. Each connection's page cache fills up to it as the
// database grows (the writer's with every page it writes), so it is part of the memory a
// long-running server settles at: three connections, the writer's and the reader's on the main
// thread and the read worker's on its own.
export const readPragmas = (cacheMb) => [
  "busy_timeout = 5000",
  // Reads (proofs over a large log especially) are page lookups: keep pages in memory and map
  // the file instead of a read() per page.
  `cache_size = -${Math.round(cacheMb * 1024)}`,
  "mmap_size = 1073741824",
];
