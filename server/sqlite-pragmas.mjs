// @ts-check
// Settings every Hallmark connection to the SQLite file reads with: the database handle's
// connections (server/db.ts) and the read and write workers' (server/store/sqlite.worker.mjs).
// Plain JavaScript, so the worker, which Next.js bundles as its own entry, can import it.
// cacheMb: HALLMARK_SQLITE_CACHE_MB. Each connection's page cache fills up to it as the
// database grows (the writer's with every page it writes), so it is part of the memory a
// long-running server settles at: four connections, the writer's and the reader's on the main
// thread (the writer's stays small: the log's appends run on the write worker) and the read and
// write workers', each on its own thread.
// mmapMb: HALLMARK_SQLITE_MMAP_MB. How much of the file each connection maps instead of
// read()ing it page by page; 0 maps nothing. Each connection maps on its own, and the mapped
// pages it reads count in the process's RSS (file-backed: the kernel reclaims them), up to the
// file's size or this bound, per connection. Without a map (the default) the server's RSS stays
// flat once the page caches are full; a map makes proofs over a large log somewhat faster
// (measured: docs/performance.md, Memory).
/**
 * Per connection, in MB: the page cache (HALLMARK_SQLITE_CACHE_MB) and the map (HALLMARK_SQLITE_MMAP_MB, 0 for none).
 * @typedef {{ cacheMb: number, mmapMb: number }} SqliteSizes
 */

/**
 * The settings every connection runs (each an argument of better-sqlite3's db.pragma), for `sizes`.
 * @param {SqliteSizes} sizes
 * @returns {readonly string[]}
 */
export const readPragmas = ({ cacheMb, mmapMb }) => [
  "busy_timeout = 5000",
  // Reads (proofs over a large log especially) are page lookups: keep pages in memory.
  `cache_size = -${Math.round(cacheMb * 1024)}`,
  `mmap_size = ${Math.round(mmapMb * 1024 * 1024)}`,
];
