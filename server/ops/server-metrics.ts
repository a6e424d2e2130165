import "server-only";
import { processWide } from "../process-wide";
import { getDb } from "../db";
import { issuerCacheEntries } from "../domain/attestations";
import { personalIssuerCacheEntries } from "../domain/attestations";
import { consumerCacheEntries } from "../domain/protections";
import { signerCacheEntries } from "../domain/attestations";
import { gzipCacheUse } from "../http/gzip-cache";
import { nodeCacheEntries } from "../log/node-cache";
import { tileCacheUse } from "../log/tiles";
import { getSequencer } from "../log/sequencer";
import { getStore } from "../store";
import { client, metrics } from "../observability/metrics.mjs";

/**
 * The gauges read when /metrics is scraped: the log's size and the age of its newest
 * checkpoint (a log that stopped signing shows here first), the sequencer's queue, and the
 * PostgreSQL pool's connections, and the fill of the in-memory caches (each bounded; together
 * most of what a long-running server's memory grows by). Registered once per process
 * (instrumentation.ts).
 */
export function registerServerMetrics(): void {
  const registered = processWide("server-metrics", () => ({ done: false }));
  if (registered.done) return;
  registered.done = true;
  const registers = [metrics.register];
  new client.Gauge({
    name: "hallmark_log_tree_size",
    help: "Entries in the log, per its newest checkpoint.",
    registers,
    async collect() {
      const cp = await getStore().reads.latestCheckpoint();
      if (cp) this.set(Number(cp.treeSize));
    },
  });
  new client.Gauge({
    name: "hallmark_log_checkpoint_age_seconds",
    help: "Seconds since the newest checkpoint was signed (a new one is signed with every append).",
    registers,
    async collect() {
      const cp = await getStore().reads.latestCheckpoint();
      if (cp) this.set((Date.now() - cp.timestamp.getTime()) / 1000);
    },
  });
  new client.Gauge({
    name: "hallmark_sequencer_queued_entries",
    help: "Entries waiting for this instance's next append transaction.",
    registers,
    collect() {
      this.set(getSequencer().queuedEntries());
    },
  });
  new client.Gauge({
    name: "hallmark_cache_entries",
    help: "Entries in each in-memory cache: built tiles (tiles), gzipped immutable bodies (gzip), tree nodes (tree_nodes, at most 250,000), and the hot path's few-seconds caches of issuers, consumers and signers (at most 10,000 each) and of personal issuers (at most 50,000).",
    labelNames: ["cache"],
    registers,
    collect() {
      this.set({ cache: "tiles" }, tileCacheUse().entries);
      this.set({ cache: "gzip" }, gzipCacheUse().entries);
      this.set({ cache: "tree_nodes" }, nodeCacheEntries());
      this.set({ cache: "issuers" }, issuerCacheEntries());
      this.set({ cache: "consumers" }, consumerCacheEntries());
      this.set({ cache: "signers" }, signerCacheEntries());
      this.set({ cache: "personal_issuers" }, personalIssuerCacheEntries());
    },
  });
  new client.Gauge({
    name: "hallmark_cache_bytes",
    help: "Bytes held by the caches bounded by size: built tiles (at most 64 MiB) and gzipped immutable bodies (at most 32 MiB).",
    labelNames: ["cache"],
    registers,
    collect() {
      this.set({ cache: "tiles" }, tileCacheUse().bytes);
      this.set({ cache: "gzip" }, gzipCacheUse().bytes);
    },
  });
  new client.Gauge({
    name: "hallmark_db_pool_connections",
    help: "PostgreSQL pool connections by state (total, idle, waiting: requests queued for one). SQLite has no pool: a writer, a reader and the read worker's connection.",
    labelNames: ["state"],
    registers,
    collect() {
      const pool = getDb().pg;
      if (!pool) return;
      this.set({ state: "total" }, pool.totalCount);
      this.set({ state: "idle" }, pool.idleCount);
      this.set({ state: "waiting" }, pool.waitingCount);
    },
  });
}
