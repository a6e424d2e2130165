// Operator commands. Run through `npm run admin -- <command>`.
//   create-org --name <name> [--owner-email <e> --owner-password <p> [--owner-name <n>]] [--json]
//       an organisation and an API key holding every organisation scope; with an owner, the
//       user who signs in to the organisation's console (/console) with that e-mail and password
//   create-consumer --email <e> --password <p> --plan free|creator|pro [--name <n>] [--verified] [--json]
//       a consumer account (personal tenant) and an API key holding the consumer scopes
//   rotate-log-key [--origin <origin>] [--json]
//       a new log key is a new log: the current log ends with a successor statement naming the
//       new origin and key, and appends go to the new log (default origin: the first log's, "/<n>")
//   readable-private [--json]
//       the private protections whose log entries are not sealed (minted before sealed entries,
//       or public before they were made private): what anyone reading the log can read, with
//       each owner's e-mail, to tell them
//   witnesses [--json]
//       each witness of HALLMARK_WITNESS_POLICY: last cosigned size, last error, next attempt;
//       and the newest 422s (possible evidence of a fork); then this instance as a witness
//       (HALLMARK_WITNESS_LOGS): each log it follows, and each entry of the list it skips, and why
//   witness-retire <origin> [--json]
//       this instance as a witness forgets its record of a log (refused since the log list changed
//       its key, or made by other witness keys), printing what it held: the log is witnessed again
//       from size 0 under the key the list names
//   witness-network-entry --contact <how to reach the operator>
//       this log's item for the witness network's log list (logs/v0: vkey, origin, qpd, contact)
//   backup <file> [--include-master-key] [--json]
//       a consistent copy of the SQLite database, taken while servers run; names the master key
//       (not copied unless asked: then to <file>.master-key, mode 0600). PostgreSQL: pg_dump
//   restore <file> [--data-dir <dir>] [--json]
//       a backup into an empty data directory; the next start applies newer migrations
// The commands that use the database first apply pending migrations (as the start does);
// backup and restore do not: a backup changes nothing, and a restore needs the directory empty.
// Exit codes: 0 done, 1 failed, 2 refused (bad arguments, or a backup or restore that would be
// wrong), with the reason on stderr.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { z } from "zod";
import { getDb } from "@/server/db";
import { createConsumer } from "@/server/domain/accounts";
import { PLANS } from "@/server/domain/plans";
import { createOrganization } from "@/server/domain/accounts";
import { getLogInfo, getWitnessing } from "@/server/domain/public-log";
import { readablePrivateProtections } from "@/server/domain/protections";
import { witnessNetworkEntry } from "@/server/domain/public-log";
import { rotateLog } from "@/server/domain/public-log";
import { witnessStatus } from "@/server/cosigner/witness-status";
import { retireWitnessedLog } from "@/server/cosigner/retire";
import { backup, Refusal, restore } from "./backup";
import { printWitnessStatus } from "./admin-witness";

const USAGE = `usage: npm run admin -- create-org --name <name> [--owner-email <e> --owner-password <p> [--owner-name <n>]] [--json]
       npm run admin -- create-consumer --email <e> --password <p> --plan ${PLANS.join("|")} [--name <n>] [--verified] [--json]
       npm run admin -- rotate-log-key [--origin <origin>] [--json]
       npm run admin -- readable-private [--json]
       npm run admin -- witnesses [--json]
       npm run admin -- witness-retire <origin> [--json]
       npm run admin -- witness-network-entry --contact <text>
       npm run admin -- backup <file> [--include-master-key] [--json]
       npm run admin -- restore <file> [--data-dir <dir>] [--json]`;

/** The commands that open the database (after applying pending migrations). */
const DB_COMMANDS = new Set([
  "create-org",
  "create-consumer",
  "rotate-log-key",
  "witnesses",
  "witness-retire",
  "readable-private",
  "witness-network-entry",
]);

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

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
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
        origin: { type: "string" },
        contact: { type: "string" },
        "include-master-key": { type: "boolean", default: false },
        "data-dir": { type: "string" },
        json: { type: "boolean", default: false },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (err) {
    return fail((err as Error).message);
  }
  if (command === "backup" || command === "restore") return backupOrRestore(command, positionals, values);
  // witness-retire names the origin it retires.
  const retiring = command === "witness-retire" ? positionals.shift() : undefined;
  if (positionals.length) return fail(`unexpected argument ${positionals[0]}`);
  if (values["include-master-key"] || values["data-dir"] !== undefined)
    return fail("--include-master-key is for backup, --data-dir for restore");
  if (DB_COMMANDS.has(command ?? "")) {
    try {
      // Its output goes to stderr: stdout carries the command's answer alone (--json).
      execFileSync(process.execPath, [fileURLToPath(new URL("prisma.mjs", import.meta.url)), "deploy", "--if-needed"], {
        stdio: ["ignore", 2, "inherit"],
      });
    } catch {
      return 1; // prisma.mjs has said why
    }
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
  if (command === "readable-private") {
    let count = 0;
    for await (const p of readablePrivateProtections()) {
      count++;
      // One JSON object per line with --json: a list of any length streams.
      if (values.json) console.log(JSON.stringify(p));
      else console.log(`${p.protection_id} ${p.email} log index ${p.log_index}, protected ${p.protected_at}`);
    }
    if (!values.json)
      console.log(
        count === 0
          ? "Every private protection's log entry is sealed."
          : `${count} private protection(s) can be read in the public log (content hash, category, protection id, issuer): tell their owners.`,
      );
    return 0;
  }
  if (command === "witness-network-entry") {
    if (!values.contact)
      return fail("witness-network-entry needs --contact (an e-mail address or a URL a witness operator can reach you at)");
    try {
      process.stdout.write(await witnessNetworkEntry(String(values.contact)));
    } catch (err) {
      return fail((err as Error).message);
    }
    return 0;
  }
  if (command === "witness-retire") {
    const origin = retiring;
    if (!origin) return fail("witness-retire needs the origin of the log whose record to forget");
    const retired = await retireWitnessedLog(origin);
    if (!retired) return fail(`this witness holds no record of ${origin}`);
    if (values.json) console.log(JSON.stringify(retired));
    else
      console.log(
        `Retired ${origin}: the record of size ${retired.tree_size} (log key ${retired.log_vkey ?? "not bound"}) is forgotten; the log is witnessed again from size 0 under the key the list names. What it held:\n${retired.note}`,
      );
    return 0;
  }
  if (command === "witnesses") {
    const [{ tree_size }, witnessing, asWitness] = await Promise.all([getLogInfo(), getWitnessing(), witnessStatus()]);
    // The policy's witnesses, with this instance as a witness beside them (as_witness) when it is one.
    if (values.json) console.log(JSON.stringify(asWitness ? { ...witnessing, as_witness: asWitness } : witnessing));
    else if (!witnessing) console.log("No witnesses: HALLMARK_WITNESS_POLICY is not set.");
    else {
      console.log(
        `log size ${tree_size}; quorum (${witnessing.quorum}) met at size ${witnessing.witnessed_tree_size}; /checkpoint serves size ${witnessing.published_tree_size} (${witnessing.mode})`,
      );
      for (const w of witnessing.witnesses) {
        const state = w.last_error ? `failing (${w.failures}×): ${w.last_error}; next attempt ${w.next_attempt_at}` : "ok";
        console.log(
          `${w.name} ${w.url ?? "(no URL: not submitted to)"}: cosigned size ${w.cosigned_tree_size ?? "unknown"} at ${w.cosigned_at ?? "-"}; ${state}`,
        );
      }
      for (const e of witnessing.evidence)
        console.log(
          `ALERT: ${e.witness} answered ${e.status} to checkpoint ${e.tree_size} at ${e.at} (possible evidence of a fork; request and answer in witness_evidence, id ${e.id})`,
        );
    }
    if (!values.json) printWitnessStatus(asWitness);
    return 0;
  }
  if (command === "rotate-log-key") {
    let rotated: Awaited<ReturnType<typeof rotateLog>>;
    try {
      rotated = await rotateLog(typeof values.origin === "string" ? { origin: values.origin } : {});
    } catch (err) {
      return fail((err as Error).message);
    }
    if (values.json) console.log(JSON.stringify(rotated));
    else {
      const { previous, current } = rotated;
      console.log(
        `The log ${previous.origin} is frozen at size ${previous.final_size}: its last entry (index ${previous.successor_index}) names its successor.`,
      );
      console.log(`Appends now go to the new log ${current.origin}, signed by ${current.verifier_key}`);
      console.log(`(and ${current.ml_dsa_44_verifier_key}).`);
      console.log("To a witness a new origin is a new log: give it this item (npm run admin -- witness-network-entry prints it):");
      console.log(`vkey ${current.verifier_key}`);
    }
    return 0;
  }
  return fail(command ? `unknown command ${command}` : "a command is required");
}

async function backupOrRestore(
  command: "backup" | "restore",
  positionals: string[],
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const [file, ...extra] = positionals;
  if (!file) return fail(`${command} needs the backup file`);
  if (extra.length) return fail(`unexpected argument ${extra[0]}`);
  if (command === "backup" ? values["data-dir"] !== undefined : values["include-master-key"])
    return fail(`${command === "backup" ? "--data-dir" : "--include-master-key"} is not an option of ${command}`);
  try {
    if (command === "backup") {
      const r = await backup(file, { includeMasterKey: values["include-master-key"] === true });
      if (values.json) console.log(JSON.stringify(r));
      else {
        const size = r.tree_size === null ? "no log yet" : `log ${r.origin} at size ${r.tree_size}`;
        console.log(`Backed up ${r.database} to ${r.backup} (${r.bytes} bytes, ${r.migrations} migrations, ${size}).`);
        const from = r.master_key.source === "env" ? "the environment variable HALLMARK_MASTER_KEY" : r.master_key.name;
        if (r.master_key.copy)
          console.log(
            `The master key (from ${from}) is in ${r.master_key.copy} (mode 0600). With both files anyone can sign as the log and every issuer: keep them as safe as the key itself.`,
          );
        else
          console.log(
            `The master key is NOT in the backup: it is ${from}. Keep it safe, apart from the backup: without it the private keys in the backup cannot be used.`,
          );
      }
      return 0;
    }
    // --data-dir stands for HALLMARK_DATA_DIR, set before anything reads the configuration.
    const dataDir = values["data-dir"];
    if (typeof dataDir === "string") {
      const dir = path.resolve(dataDir);
      const url = process.env.DATABASE_URL;
      if (url?.startsWith("file:") && path.dirname(path.resolve(url.slice("file:".length))) !== dir)
        return fail(
          `DATABASE_URL names ${url.slice("file:".length)}, outside --data-dir ${dir}: unset it, or name a file in that directory`,
        );
      process.env.HALLMARK_DATA_DIR = dir;
    }
    const r = restore(file);
    if (values.json) console.log(JSON.stringify(r));
    else {
      const size = r.tree_size === null ? "no log yet" : `log ${r.origin} at size ${r.tree_size}`;
      console.log(`Restored ${path.resolve(file)} to ${r.database} (${r.migrations} migrations, ${size}).`);
      const key = r.master_key;
      console.log(
        key.installed_from
          ? `The master key from ${key.installed_from} is now ${key.name} (mode 0600); it opens the backup's log key.`
          : `The master key (${key.name}) opens the backup's log key; start Hallmark with the same one.`,
      );
      console.log(
        `Start Hallmark with HALLMARK_DATA_DIR=${r.data_dir}${r.origin ? ` and HALLMARK_LOG_ORIGIN unset or ${r.origin}` : ""}: the start applies any newer migrations.`,
      );
    }
    return 0;
  } catch (err) {
    if (err instanceof Refusal) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
}

const usesDb = DB_COMMANDS.has(process.argv[2] ?? "");
main(process.argv.slice(2))
  .then(async (code) => {
    if (usesDb) await getDb().close();
    process.exit(code);
  })
  .catch(async (err: Error) => {
    console.error(err.message);
    if (usesDb)
      await getDb()
        .close()
        .catch(() => {});
    process.exit(1);
  });
