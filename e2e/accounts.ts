// The one factory for test accounts, shared by the REST and browser suites. Every account is
// made by the functions behind the operator CLI (`npm run admin -- create-org | create-consumer`),
// beside the running server and on its database (the environment's DATABASE_URL):
// - in the REST suite (Vitest, where server modules load), in the test's own process: one CLI
//   start costs about 2 s, and the suite makes hundreds of accounts;
// - in the browser suite, in one account process per Playwright worker (./seeder.ts), which calls
//   those functions for each request;
// - for a test that passes an environment of its own (a server on another database), through the
//   CLI itself, exactly as the README shows an operator.
// The CLI's own answers are tested where it is the subject (api-keys, org-owner, backup).
import { execFile, spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import type { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { cli } from "./cli";

export type Plan = "free" | "creator" | "pro";

export interface SeededConsumer {
  userId: string;
  tenantId: string;
  /** An API key holding the consumer scopes. */
  apiKey: string;
  email: string;
  password: string;
  name: string;
}

export interface SeededOrg {
  tenantId: string;
  /** An API key holding every organisation scope. */
  apiKey: string;
  name: string;
}

export interface SeededOrgWithOwner extends SeededOrg {
  ownerId: string;
  /** The owner's credentials, for the console's login. */
  email: string;
  password: string;
}

const unique = (tag: string) => `${tag}-${randomUUID().slice(0, 12)}@example.org`;

/**
 * Runs `npm run admin -- <args> --json`, as the README does, and returns its JSON. Its stdout must
 * be the JSON alone (scripts pipe it to jq); a failing command throws with the CLI's stderr.
 */
async function admin(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Record<string, string>> {
  let out: string;
  try {
    out = (await promisify(execFile)(...cli("admin", ...args, "--json"), { encoding: "utf8", env })).stdout;
  } catch (err) {
    const e = err as { code?: number | string; stderr?: string; message: string };
    throw new Error(`npm run admin -- ${args[0]} failed (exit ${e.code ?? "?"}): ${String(e.stderr ?? "").trim() || e.message}`);
  }
  try {
    return JSON.parse(out);
  } catch {
    throw new Error(`npm run admin -- ${args[0]} --json printed more than its JSON:\n${out}`);
  }
}

type SeederAnswer = { id: number; ok?: Record<string, string>; error?: string };

/** This process's account process (./seeder.ts), started on the first account asked of it. */
let seeder: { stdin: Writable; waiting: Map<number, (a: SeederAnswer) => void> } | undefined;
let seederRequests = 0;

function startSeeder() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const child = spawn(path.join(root, "node_modules/.bin/tsx"), ["--conditions=react-server", path.join(root, "e2e/seeder.ts")], {
    cwd: root,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const waiting = new Map<number, (a: SeederAnswer) => void>();
  readline.createInterface({ input: child.stdout }).on("line", (line) => {
    const a = JSON.parse(line) as SeederAnswer;
    waiting.get(a.id)?.(a);
    waiting.delete(a.id);
  });
  child.on("exit", (code) => {
    for (const settle of waiting.values()) settle({ id: 0, error: `the account process (e2e/seeder.ts) exited with ${code}` });
    seeder = undefined;
  });
  // Nothing here keeps the worker alive; its exit closes the pipe, and the account process ends.
  child.unref();
  for (const s of [child.stdin, child.stdout]) (s as unknown as { unref?: () => void }).unref?.();
  return { stdin: child.stdin, waiting };
}

function seed(op: "consumer" | "org", args: object): Promise<Record<string, string>> {
  seeder ??= startSeeder();
  const { stdin, waiting } = seeder;
  const id = ++seederRequests;
  return new Promise((resolve, reject) => {
    waiting.set(id, (a) => (a.ok ? resolve(a.ok) : reject(new Error(`seeding a ${op} failed: ${a.error}`))));
    stdin.write(`${JSON.stringify({ id, op, args })}\n`);
  });
}

/** In the REST suite's process, the domain functions the CLI calls (loaded only there: they are server code). */
const inProcess = process.env.VITEST === "true";
const domain = () =>
  Promise.all([import("../server/domain/accounts"), import("../server/domain/accounts")]).then(([c, t]) => ({ ...c, ...t }));

/** A consumer account (verified unless asked otherwise) with its API key. */
export async function seedConsumer(
  opts: { plan?: Plan; verified?: boolean; name?: string; email?: string; password?: string } = {},
): Promise<SeededConsumer> {
  const email = opts.email ?? unique("consumer");
  const password = opts.password ?? `pw-${randomUUID()}`;
  const name = opts.name ?? "Ada Lovelace";
  const plan = opts.plan ?? "free";
  const verified = opts.verified ?? true;
  if (inProcess) {
    const r = await (await domain()).createConsumer({ email, password, name, plan, verified, withApiKey: true });
    return { userId: r.userId, tenantId: r.tenantId, apiKey: r.apiKey!, email, password, name };
  }
  const r = await seed("consumer", { email, password, name, plan, verified });
  return { userId: r.userId!, tenantId: r.tenantId!, apiKey: r.apiKey!, email, password, name };
}

export interface SeedOrgOptions {
  name?: string;
  /** An owner who logs in to the console; `{ name }` names them (else the CLI's default, the e-mail's local part). */
  owner?: boolean | { name?: string };
  /** The environment the CLI runs in (its DATABASE_URL): this process's unless a test runs a server of its own. */
  env?: NodeJS.ProcessEnv;
}

/** An organisation with its first API key and, when asked, an owner who logs in to the console. */
export function seedOrg(opts: SeedOrgOptions & { owner: true | { name?: string } }): Promise<SeededOrgWithOwner>;
export function seedOrg(opts?: SeedOrgOptions & { owner?: false }): Promise<SeededOrg>;
export function seedOrg(opts?: SeedOrgOptions): Promise<SeededOrg | SeededOrgWithOwner>;
export async function seedOrg(opts: SeedOrgOptions = {}): Promise<SeededOrg | SeededOrgWithOwner> {
  const name = opts.name ?? `Org ${randomUUID().slice(0, 8)}`;
  const email = unique("owner");
  const password = `pw-${randomUUID()}`;
  // The CLI's default owner name is the e-mail's local part.
  const ownerName = (typeof opts.owner === "object" && opts.owner.name) || email.slice(0, email.indexOf("@"));
  const owner = opts.owner ? { email, password, name: ownerName } : undefined;
  const made = opts.env
    ? await orgByCli(name, owner, opts.env)
    : inProcess
      ? await (await domain()).createOrganization({ name, owner })
      : ((await seed("org", { name, owner })) as { tenantId: string; apiKey: string; ownerId?: string });
  const org = { tenantId: made.tenantId, apiKey: made.apiKey, name };
  return owner ? { ...org, ownerId: made.ownerId!, email, password } : org;
}

/** `npm run admin -- create-org`, answering as createOrganization does. */
async function orgByCli(name: string, owner: { email: string; password: string; name: string } | undefined, env?: NodeJS.ProcessEnv) {
  const args = ["create-org", "--name", name];
  if (owner) args.push("--owner-email", owner.email, "--owner-password", owner.password, "--owner-name", owner.name);
  const r = await admin(args, env);
  return { tenantId: r.tenant_id!, apiKey: r.api_key!, ownerId: r.owner_id };
}
