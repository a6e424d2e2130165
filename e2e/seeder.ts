// The browser suite's account factory process: one per Playwright worker (started by
// ../e2e/accounts.ts on its first account), on the server's database (the environment's
// DATABASE_URL). It calls the same domain functions as `npm run admin -- create-consumer |
// create-org`, whose own answers the REST suite tests: an account costs its password hash and one
// transaction, not a CLI start (about 6 s of CPU on these machines, with tsx and migrations checked).
//
// Protocol: one JSON request a line on stdin, `{"id":n,"op":"consumer"|"org","args":{…}}`; one JSON
// answer a line on stdout, `{"id":n,"ok":{…}}` or `{"id":n,"error":"…"}`. It exits when stdin ends.
import readline from "node:readline";
import { createConsumer } from "@/server/domain/accounts";
import { createOrganization } from "@/server/domain/accounts";

type Request =
  | { id: number; op: "consumer"; args: Omit<Parameters<typeof createConsumer>[0], "withApiKey"> }
  | { id: number; op: "org"; args: Parameters<typeof createOrganization>[0] };

const answer = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

for await (const line of readline.createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const r = JSON.parse(line) as Request;
  const id = r.id;
  // Requests run side by side; each answer names its request.
  (r.op === "consumer" ? createConsumer({ ...r.args, withApiKey: true }) : createOrganization(r.args))
    .then((ok) => answer({ id, ok }))
    .catch((err: Error) => answer({ id, error: err.stack ?? err.message }));
}
process.exit(0);
