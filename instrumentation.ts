// Runs once when a server process starts (Next.js instrumentation): background work that
// belongs to the process, not to a request, and what the process does when it stops
// (server/lifecycle.mjs: the hooks run newest first, after the last request was answered).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { onShutdown } = await import("./server/lifecycle.mjs");
  const { getDb } = await import("./server/db");
  const { closeStore } = await import("./server/store");
  onShutdown("database", async () => {
    await closeStore();
    await getDb().close();
  });
  const { getSequencer } = await import("./server/log/sequencer");
  onShutdown("sequencer", () => getSequencer().idle());
  const { startWitnessing, stopWitnessing } = await import("./server/log/witnessing");
  startWitnessing();
  onShutdown("witnessing", stopWitnessing);
  const { startTimestamping, stopTimestamping } = await import("./server/log/timestamping");
  startTimestamping();
  onShutdown("timestamping", stopTimestamping);
  // The witness key file is made (or, after an upgrade, written with the keys it had) at start.
  const { witnessIdentity } = await import("./server/cosigner/identity");
  await witnessIdentity();
  const { registerServerMetrics } = await import("./server/ops/server-metrics");
  registerServerMetrics();
}
