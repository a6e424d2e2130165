// Operator commands. Run through `npm run admin -- <command>`.
//   create-org --name <name> [--owner-email <e> --owner-password <p> [--owner-name <n>]] [--json]
//       an organisation and an API key holding every organisation scope; with an owner, the
//       user who signs in to the organisation's console (/console) with that e-mail and password
//   create-consumer --email <e> --password <p> --plan free|creator|pro [--name <n>] [--verified] [--json]
//       a consumer account (personal tenant) and an API key holding the consumer scopes
//   rotate-log-key [--overlap 24h] [--json]
//       a new log key signs from now on; the old one signs beside it for the overlap, then stops
//   witnesses [--json]
//       each witness of HALLMARK_WITNESS_POLICY: last cosigned size, last error, next attempt
import { parseArgs } from "node:util";
import { z } from "zod";
import { getDb } from "@/server/db";
import { createConsumer, PLANS } from "@/server/domain/consumers";
import { createOrganization } from "@/server/domain/tenants";
import { getLogInfo } from "@/server/domain/log";
import { MIN_OVERLAP_MS, rotateLogKey } from "@/server/log/log-identity";

const USAGE = `usage: npm run admin -- create-org --name <name> [--owner-email <e> --owner-password <p> [--owner-name <n>]] [--json]
       npm run admin -- create-consumer --email <e> --password <p> --plan ${PLANS.join("|")} [--name <n>] [--verified] [--json]
       npm run admin -- rotate-log-key [--overlap 24h] [--json]
       npm run admin -- witnesses [--json]`;

const ZOwner = z.object({
  email: z.email("--owner-email must be an e-mail address"),
  password: z.string().min(8, "--owner-password needs at least 8 characters").max(256),
  name: z.string().trim().min(1).max(100),
});

const ZConsumer = z.object({
  email: z.email(),
  password: z.string().min(8, "--password needs at least 8 characters").max(256),
  plan: z.enum(PLANS),
  name: z.string().trim().min(1).max(100),
});

function fail(message: string): number {
  console.error(`${message}\n${USAGE}`);
  return 2;
}

/** "90s", "30m", "24h", "7d" (or plain seconds) in milliseconds; null if not a duration. */
function parseDuration(text: string): number | null {
  const m = /^([0-9]{1,9})(s|m|h|d)?$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m[2] ?? "s") as "s"];
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        name: { type: "string" },
        email: { type: "string" },
        password: { type: "string" },
        plan: { type: "string" },
        "owner-email": { type: "string" },
        "owner-password": { type: "string" },
        "owner-name": { type: "string" },
        verified: { type: "boolean", default: false },
        overlap: { type: "string" },
        json: { type: "boolean", default: false },
      },
      strict: true,
    }));
  } catch (err) {
    return fail((err as Error).message);
  }
  if (command === "create-org") {
    const name = typeof values.name === "string" ? values.name.trim() : "";
    if (!name || name.length > 200) return fail("--name is required (1 to 200 characters)");
    let owner: z.infer<typeof ZOwner> | undefined;
    const ownerEmail = values["owner-email"];
    if (ownerEmail !== undefined || values["owner-password"] !== undefined) {
      const email = typeof ownerEmail === "string" ? ownerEmail : "";
      const parsed = ZOwner.safeParse({
        email,
        password: values["owner-password"] ?? "",
        name: values["owner-name"] ?? email.split("@")[0],
      });
      if (!parsed.success) return fail(parsed.error.issues.map((i) => i.message).join("\n"));
      owner = parsed.data;
    }
    const { tenantId, apiKey, ownerId } = await createOrganization({ name, owner });
    if (values.json) console.log(JSON.stringify({ tenant_id: tenantId, api_key: apiKey, ...(ownerId ? { owner_id: ownerId } : {}) }));
    else
      console.log(
        `Organisation ${tenantId} created.\nAPI key (shown once, keep it secret): ${apiKey}${ownerId ? `\nOwner ${ownerId} can sign in to /console.` : ""}`,
      );
    return 0;
  }
  if (command === "create-consumer") {
    const email = typeof values.email === "string" ? values.email : "";
    const parsed = ZConsumer.safeParse({ email, password: values.password, plan: values.plan, name: values.name ?? email.split("@")[0] });
    if (!parsed.success) return fail(parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join("\n"));
    const { userId, tenantId, apiKey } = await createConsumer({ ...parsed.data, verified: values.verified === true, withApiKey: true });
    if (values.json) console.log(JSON.stringify({ user_id: userId, tenant_id: tenantId, api_key: apiKey }));
    else console.log(`Consumer ${userId} (tenant ${tenantId}) created.\nAPI key (shown once, keep it secret): ${apiKey}`);
    return 0;
  }
  if (command === "witnesses") {
    const { witnessing, tree_size } = await getLogInfo();
    if (values.json) console.log(JSON.stringify(witnessing));
    else if (!witnessing) console.log("No witnesses: HALLMARK_WITNESS_POLICY is not set.");
    else {
      console.log(`log size ${tree_size}; published (quorum ${witnessing.quorum} met) ${witnessing.published_tree_size}`);
      for (const w of witnessing.witnesses) {
        const state = w.last_error ? `failing (${w.failures}×): ${w.last_error}; next attempt ${w.next_attempt_at}` : "ok";
        console.log(
          `${w.name} ${w.url ?? "(no URL: not submitted to)"}: cosigned size ${w.cosigned_tree_size ?? "unknown"} at ${w.cosigned_at ?? "-"}; ${state}`,
        );
      }
    }
    return 0;
  }
  if (command === "rotate-log-key") {
    const overlap = parseDuration(typeof values.overlap === "string" ? values.overlap : "24h");
    if (overlap === null || overlap < MIN_OVERLAP_MS)
      return fail(`--overlap is a duration such as 90s, 30m, 24h or 7d, at least ${MIN_OVERLAP_MS / 1000}s`);
    const { current, previous } = await rotateLogKey(overlap);
    const out = {
      verifier_key: current.verifierKey,
      key_id: current.keyIdHex,
      previous_verifier_key: previous.verifierKey,
      previous_signs_until: previous.signsUntil!.toISOString(),
    };
    if (values.json) console.log(JSON.stringify(out));
    else {
      console.log(`The log's new key signs from now on: ${current.verifierKey}`);
      console.log(`The old key ${previous.verifierKey} signs beside it until ${out.previous_signs_until}.`);
      console.log("Give the new verifier key to the log's witnesses before then (they refuse checkpoints it alone signs).");
    }
    return 0;
  }
  return fail(command ? `unknown command ${command}` : "a command is required");
}

main(process.argv.slice(2))
  .then(async (code) => {
    await getDb().close();
    process.exit(code);
  })
  .catch(async (err: Error) => {
    console.error(err.message);
    await getDb()
      .close()
      .catch(() => {});
    process.exit(1);
  });
