// The one factory for test accounts, shared by the REST and browser suites: every account is
// made through the operator CLI (`npm run admin`), exactly as the README shows an operator
// making one, beside the running server and on its database (the environment's DATABASE_URL).
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";

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
function admin(args: string[], env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  let out: string;
  try {
    out = execFileSync("npm", ["run", "admin", "--", ...args, "--json"], { encoding: "utf8", env, stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    const e = err as { status?: number | null; stderr?: string; message: string };
    throw new Error(`npm run admin -- ${args[0]} failed (exit ${e.status ?? "?"}): ${String(e.stderr ?? "").trim() || e.message}`);
  }
  try {
    return JSON.parse(out);
  } catch {
    throw new Error(`npm run admin -- ${args[0]} --json printed more than its JSON:\n${out}`);
  }
}

/** A consumer account (verified unless asked otherwise) with its API key. */
export function seedConsumer(
  opts: { plan?: Plan; verified?: boolean; name?: string; email?: string; password?: string } = {},
): SeededConsumer {
  const email = opts.email ?? unique("consumer");
  const password = opts.password ?? `pw-${randomUUID()}`;
  const name = opts.name ?? "Ada Lovelace";
  const args = ["create-consumer", "--email", email, "--password", password, "--plan", opts.plan ?? "free", "--name", name];
  if (opts.verified ?? true) args.push("--verified");
  const r = admin(args);
  return { userId: r.user_id!, tenantId: r.tenant_id!, apiKey: r.api_key!, email, password, name };
}

export interface SeedOrgOptions {
  name?: string;
  /** An owner who logs in to the console; `{ name }` names them (else the CLI's default, the e-mail's local part). */
  owner?: boolean | { name?: string };
  /** The environment the CLI runs in (its DATABASE_URL): this process's unless a test runs a server of its own. */
  env?: NodeJS.ProcessEnv;
}

/** An organisation with its first API key and, when asked, an owner who logs in to the console. */
export function seedOrg(opts: SeedOrgOptions & { owner: true | { name?: string } }): SeededOrgWithOwner;
export function seedOrg(opts?: SeedOrgOptions & { owner?: false }): SeededOrg;
export function seedOrg(opts?: SeedOrgOptions): SeededOrg | SeededOrgWithOwner;
export function seedOrg(opts: SeedOrgOptions = {}): SeededOrg | SeededOrgWithOwner {
  const name = opts.name ?? `Org ${randomUUID().slice(0, 8)}`;
  const args = ["create-org", "--name", name];
  if (!opts.owner) {
    const r = admin(args, opts.env);
    return { tenantId: r.tenant_id!, apiKey: r.api_key!, name };
  }
  const email = unique("owner");
  const password = `pw-${randomUUID()}`;
  args.push("--owner-email", email, "--owner-password", password);
  if (typeof opts.owner === "object" && opts.owner.name) args.push("--owner-name", opts.owner.name);
  const r = admin(args, opts.env);
  return { tenantId: r.tenant_id!, apiKey: r.api_key!, name, ownerId: r.owner_id!, email, password };
}
