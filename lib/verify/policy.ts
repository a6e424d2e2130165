// C2SP tlog-policy (https://c2sp.org/tlog-policy): which logs and witnesses a verifier trusts
// and the quorum of witnesses a checkpoint needs. Parsed strictly: a policy that is not what
// its author meant must not quietly verify less than they asked for.
import { parseVerifierKey } from "./checkpoint";
import { parseCosignerKey, type CosignerKey } from "./cosignature";
import { bytesEqual, concatBytes } from "./encoding";
import { parseMlDsaLogKey } from "./log-signature";

export interface PolicyLog {
  vkey: string;
  /** The origin this key signs for (the vkey's name). */
  origin: string;
  keyId: Uint8Array;
  publicKey: Uint8Array;
  /** An ML-DSA-44 log key (tlog-cosignature type 0x06); absent for an Ed25519 one (signed-note type 0x01). */
  mlDsa44?: CosignerKey;
  url?: string;
}

export interface PolicyWitness {
  name: string;
  key: CosignerKey;
  url?: string;
}

export interface PolicyGroup {
  name: string;
  threshold: number;
  members: string[];
}

export interface Policy {
  logs: PolicyLog[];
  witnesses: PolicyWitness[];
  groups: PolicyGroup[];
  /** A witness or group name, or "none". */
  quorum: string;
}

export class PolicyError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line === undefined ? message : `policy line ${line}: ${message}`);
    this.name = "PolicyError";
  }
}

/** At least what the spec recommends supporting (32 logs, 32 witnesses, 32 groups), and no more than we check quickly. */
const LIMIT = 256;

export function parsePolicy(text: string): Policy {
  if (typeof text !== "string") throw new PolicyError("policy must be text");
  // The allowed octets: tab, newline, 0x20–0x7E, and anything non-ASCII.
  const bad = /[\u0000-\u0008\u000b-\u001f\u007f]/.exec(text);
  if (bad) throw new PolicyError(`character U+${bad[0].charCodeAt(0).toString(16).padStart(4, "0")} is not allowed`);
  const logs: PolicyLog[] = [];
  const witnesses: PolicyWitness[] = [];
  const groups: PolicyGroup[] = [];
  const names = new Set<string>(["none"]);
  const used = new Set<string>();
  let quorum: string | undefined;
  const lines = text.split("\n");
  lines.forEach((raw, i) => {
    const n = i + 1;
    const line = raw.replace(/^[ \t]+|[ \t]+$/g, "");
    if (line === "" || line.startsWith("#")) return;
    const f = line.split(/[ \t]+/);
    const fail = (m: string) => new PolicyError(m, n);
    switch (f[0]) {
      case "log": {
        if (f.length < 2 || f.length > 3) throw fail("expected: log <vkey> [<url>]");
        const mlDsa44 = parseMlDsaLogKey(f[1]!);
        let k: ReturnType<typeof parseVerifierKey>;
        try {
          k = mlDsa44 ?? parseVerifierKey(f[1]!);
        } catch (e) {
          throw fail(`${(e as Error).message} (a log key is Ed25519, type 0x01, or ML-DSA-44, type 0x06)`);
        }
        if (logs.some((l) => bytesEqual(l.publicKey, k.publicKey))) throw fail("duplicate log key");
        logs.push({
          vkey: f[1]!,
          origin: k.name,
          keyId: k.keyId,
          publicKey: k.publicKey,
          ...(mlDsa44 ? { mlDsa44 } : {}),
          ...(f[2] ? { url: f[2] } : {}),
        });
        break;
      }
      case "witness": {
        if (f.length < 3 || f.length > 4) throw fail("expected: witness <name> <vkey> [<url>]");
        const name = f[1]!;
        if (names.has(name)) throw fail(`name "${name}" is already defined`);
        let key: CosignerKey;
        try {
          key = parseCosignerKey(f[2]!);
        } catch (e) {
          throw fail((e as Error).message);
        }
        if (
          witnesses.some((w) =>
            bytesEqual(concatBytes(new Uint8Array([w.key.type]), w.key.publicKey), concatBytes(new Uint8Array([key.type]), key.publicKey)),
          )
        ) {
          throw fail("duplicate witness key");
        }
        names.add(name);
        witnesses.push({ name, key, ...(f[3] ? { url: f[3] } : {}) });
        break;
      }
      case "group": {
        if (f.length < 4) throw fail("expected: group <name> all|any|<k> <name>...");
        const name = f[1]!;
        if (names.has(name)) throw fail(`name "${name}" is already defined`);
        const members = f.slice(3);
        for (const m of members) {
          if (m === "none" || !names.has(m)) throw fail(`group member "${m}" is not a witness or group defined above`);
          if (used.has(m)) throw fail(`"${m}" is already a member of a group`);
          used.add(m);
        }
        let threshold: number;
        if (f[2] === "all") threshold = members.length;
        else if (f[2] === "any") threshold = 1;
        else if (/^[1-9][0-9]*$/.test(f[2]!) && Number(f[2]) <= members.length) threshold = Number(f[2]);
        else throw fail(`threshold must be all, any or 1–${members.length}`);
        names.add(name);
        groups.push({ name, threshold, members });
        break;
      }
      case "quorum": {
        if (f.length !== 2) throw fail("expected: quorum <name>");
        if (quorum !== undefined) throw fail("a policy has exactly one quorum line");
        if (!names.has(f[1]!)) throw fail(`quorum "${f[1]}" is not a witness or group defined above`);
        quorum = f[1]!;
        break;
      }
      default:
        throw fail(`unknown line type "${f[0]}"`);
    }
    if (logs.length > LIMIT || witnesses.length > LIMIT || groups.length > LIMIT) throw fail("policy is too large");
  });
  if (quorum === undefined) throw new PolicyError("a policy needs a quorum line");
  return { logs, witnesses, groups, quorum };
}

/** Whether the witnesses named in `cosigned` (policy names) satisfy the policy's quorum. */
export function quorumMet(policy: Policy, cosigned: ReadonlySet<string>): boolean {
  const groups = new Map(policy.groups.map((g) => [g.name, g]));
  const met = (name: string): boolean => {
    if (name === "none") return true;
    const g = groups.get(name);
    if (!g) return cosigned.has(name);
    return g.members.filter(met).length >= g.threshold;
  };
  return met(policy.quorum);
}

/** The quorum in words: "none", "w1", or "2 of (w1, w2, any of (w3, w4))". */
export function describeQuorum(policy: Policy): string {
  const groups = new Map(policy.groups.map((g) => [g.name, g]));
  const say = (name: string): string => {
    const g = groups.get(name);
    if (!g) return name;
    const k = g.threshold === g.members.length ? "all" : g.threshold === 1 && g.members.length > 1 ? "any" : String(g.threshold);
    return `${k} of (${g.members.map(say).join(", ")})`;
  };
  return say(policy.quorum);
}

/** The policy as text, in the spec's syntax (what GET /v1/log/policy serves). */
export function formatPolicy(policy: Policy): string {
  const lines: string[] = [];
  for (const l of policy.logs) lines.push(["log", l.vkey, l.url].filter(Boolean).join(" "));
  for (const w of policy.witnesses) lines.push(["witness", w.name, w.key.vkey, w.url].filter(Boolean).join(" "));
  for (const g of policy.groups) {
    const k = g.threshold === g.members.length ? "all" : String(g.threshold);
    lines.push(`group ${g.name} ${k} ${g.members.join(" ")}`);
  }
  lines.push(`quorum ${policy.quorum}`);
  return `${lines.join("\n")}\n`;
}
