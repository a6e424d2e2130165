// Runs once when a server process starts (Next.js instrumentation): background work that
// belongs to the process, not to a request.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startWitnessing } = await import("./server/log/witnessing");
  startWitnessing();
  const { startTimestamping } = await import("./server/log/timestamping");
  startTimestamping();
}
