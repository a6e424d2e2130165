// Settings every Hallmark connection to the SQLite file reads with: the database handle's
// connections (server/db.ts) and the read worker's (server/store/sqlite-reader.worker.mjs).
// Plain JavaScript, so the worker, which Next.js bundles as its own entry, can import it.
export const READ_PRAGMAS = [
  "busy_timeout = 5000",
  // Reads (proofs over a large log especially) are page lookups: keep pages in memory and map
  // the file instead of a read() per page.
  "cache_size = -65536",
  "mmap_size = 1073741824",
];
