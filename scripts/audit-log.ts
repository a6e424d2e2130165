// `npm run audit-log`: the log audit (server/log/log-audit.ts) on the configured database.
// Prints what it checked and each problem; exits 0 when the log is intact.
import { getDb } from "@/server/db";
import { auditLog } from "@/server/log/log-audit";

auditLog()
  .then(async ({ problems, size, nodes, checkpoints, root }) => {
    await getDb().close();
    console.log(`audited ${size} leaves, ${nodes} nodes and ${checkpoints} checkpoints; root ${root}`);
    for (const p of problems) console.error(`FAIL ${p}`);
    process.exit(problems.length ? 1 : 0);
  })
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
