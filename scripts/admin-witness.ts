// What `npm run admin -- witnesses` prints of this instance as a witness (HALLMARK_WITNESS_LOGS).
import type { WitnessStatus } from "@/server/cosigner/witness-status";

export function printWitnessStatus(status: WitnessStatus | null): void {
  if (!status) {
    console.log("As a witness: no logs (HALLMARK_WITNESS_LOGS is not set).");
    return;
  }
  if (status.error) {
    console.log(`As a witness: the log list ${status.source} cannot be read: ${status.error} (a server keeps its last good copy)`);
    return;
  }
  console.log(`As a witness: ${status.logs.length} log(s) from ${status.source}, ${status.skipped.length} entry(ies) skipped`);
  for (const l of status.logs)
    console.log(
      `  ${l.origin} (qpd ${l.qpd}): cosigned size ${l.cosigned_tree_size ?? "none yet"}${l.cosigned_at ? ` at ${l.cosigned_at}` : ""}`,
    );
  for (const s of status.skipped) console.log(`  SKIPPED line ${s.line}${s.origin ? ` (${s.origin})` : ""}: ${s.reason}`);
  for (const r of status.refused)
    console.log(`  REFUSED ${r.origin}: ${r.reason}; once checked, npm run admin -- witness-retire ${r.origin} forgets the record`);
}
