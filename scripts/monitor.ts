// Follows a Hallmark log through its C2SP tiles alone, trusting nothing it serves:
//   npm run monitor -- <base_url> --vkey <log verifier key | file> [--policy policy.txt]
//                      [--state monitor-state.json] [--watch-issuer <issuer id>]...
// It verifies the checkpoint (and, with a policy, its witnesses' quorum), fetches every entry
// after the size it last saw, checks each is an attestation in canonical form signed by the
// key its kid names (GET /v1/log/keys/<kid>), rebuilds the tree from them and checks the root
// is the checkpoint's, so the new tree extends the one it saw before (kept in the state file).
// A key rotation starts a new log (a shard with its own origin): the old one's last entry is a
// successor statement signed by both keys, which the monitor verifies and follows, from the
// pinned first key to the current log (each shard at /v1/log/shards/<SHA-256 of its origin>).
// Exit status: 0 consistent, 1 an inconsistency (printed), 2 usage, network or file error.
import fs from "node:fs";
import { parseArgs } from "node:util";
import {
  decodeEntryBundle,
  parsePolicy,
  parsePublicKeyPem,
  requireQuorum,
  resolveLogKey,
  tilePath,
  TILE_WIDTH,
  verifyAttestationSignature,
  verifyWitnessedCheckpoint,
  type Policy,
} from "@/lib/verify";
import { leafData } from "@/lib/verify/attestation";
import { describeCosignedAt } from "@/lib/verify/witnessed";
import { base64ToBytes, bytesToBase64 } from "@/lib/verify/encoding";
import { leafHash } from "@/lib/verify/merkle";
import { parseJson } from "@/lib/verify/json-parse";
import { isSealedPayload } from "@/lib/verify/sealed";
import { CompactRange } from "@/lib/verify/compact-range";
import { verifyLogCheckpoint, type LogKey } from "@/lib/verify/log-signature";
import { isSuccessorStatement, verifySuccessor } from "@/lib/verify/successor";
import { noteKeyId } from "@/lib/verify/checkpoint";
import { createHash } from "node:crypto";

const USAGE =
  "usage: npm run monitor -- <base_url> --vkey <verifier key | file> [--policy policy.txt] [--state state.json] [--watch-issuer <id>]...";

class Inconsistent extends Error {}
const die = (code: number, message: string): never => {
  console.error(message);
  process.exit(code);
};

const { values, positionals } = (() => {
  try {
    return parseArgs({
      options: {
        vkey: { type: "string" },
        policy: { type: "string" },
        state: { type: "string" },
        "watch-issuer": { type: "string", multiple: true, default: [] },
      },
      allowPositionals: true,
    });
  } catch (err) {
    return die(2, `${(err as Error).message}\n${USAGE}`);
  }
})();
const base = positionals[0]?.replace(/\/+$/, "");
if (!base || positionals.length !== 1 || !values.vkey) die(2, USAGE);
const vkeyText = fs.existsSync(values.vkey!) ? fs.readFileSync(values.vkey!, "utf8").trim() : values.vkey!;
let log: LogKey;
try {
  log = resolveLogKey(vkeyText);
} catch (err) {
  die(2, `--vkey: ${(err as Error).message}`);
}
let policy: Policy | undefined;
try {
  policy = values.policy ? parsePolicy(fs.readFileSync(values.policy, "utf8")) : undefined;
} catch (err) {
  die(2, `--policy: ${(err as Error).message}`);
}
const watch = new Set(values["watch-issuer"]);

interface State {
  origin: string;
  /** The verifier key of the log followed (the pinned one, or a successor statement's). */
  vkey?: string;
  size: number;
  root: string;
  subtrees: { level: number; hash: string }[];
}

async function get(path: string): Promise<Uint8Array> {
  const res = await fetch(`${base}/v1/log/${path}`, { headers: { "accept-encoding": "gzip, identity" } });
  if (res.status === 404 && path.startsWith("shards/")) throw new Error(`GET /v1/log/${path}: HTTP 404 (the server knows no such log)`);
  if (!res.ok) throw new Error(`GET /v1/log/${path}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

const keys = new Map<string, { publicKey: Uint8Array; issuerId: string }>();
async function issuerKey(kid: string) {
  let k = keys.get(kid);
  if (!k) {
    const view = JSON.parse(new TextDecoder().decode(await get(`keys/${encodeURIComponent(kid)}`))) as {
      kid: string;
      issuer_id: string;
      public_key: string;
    };
    if (view.kid !== kid) throw new Inconsistent(`GET /v1/log/keys/${kid} answered another key`);
    k = { publicKey: parsePublicKeyPem(view.public_key), issuerId: view.issuer_id };
    keys.set(kid, k);
  }
  return k;
}

/** The shard `origin`'s path under /v1/log (its tlog-tiles monitoring prefix). */
const prefixOf = (origin: string) => `shards/${createHash("sha256").update(origin).digest("hex")}/`;

async function main(): Promise<void> {
  let saved: State | null = values.state && fs.existsSync(values.state) ? JSON.parse(fs.readFileSync(values.state, "utf8")) : null;
  // A state file past the pinned log's origin follows a successor it verified before.
  let vkey = saved?.vkey && saved.origin !== log.origin ? saved.vkey : vkeyText;
  for (;;) {
    const key = resolveLogKey(vkey);
    const next = await followOne(key, vkey, saved);
    if (!next) return;
    console.log(`the log ${key.origin} ended; its successor statement names ${next.origin}: following it`);
    vkey = next.verifierKey;
    saved = { origin: next.origin, vkey, size: 0, root: bytesToBase64(new CompactRange(0, []).root()), subtrees: [] };
    // From now on the state follows the successor, whose statement was verified.
    if (values.state) saveState(saved);
  }
}

function saveState(state: State): void {
  fs.writeFileSync(`${values.state}.tmp`, JSON.stringify(state));
  fs.renameSync(`${values.state}.tmp`, values.state!);
}

/** Monitors one log of the chain; returns the next log its successor statement names, if it ended with one. */
async function followOne(log: LogKey, vkey: string, saved: State | null) {
  // A PEM key names no origin: the log is read at /v1/log itself, and no chain is followed.
  const prefix = log.origin ? prefixOf(log.origin) : "";
  const note = new TextDecoder().decode(await get(`${prefix}checkpoint`));
  let cp: { origin: string; treeSize: number; rootHash: Uint8Array };
  if (policy) {
    // The policy's witnesses and quorum; the log key is the one this chain reached.
    const logs = policy.logs.some((l) => l.origin === log.origin)
      ? policy.logs
      : [{ vkey, origin: log.origin!, keyId: noteKeyId(log.origin!, log.publicKey), publicKey: log.publicKey }];
    const w = verifyWitnessedCheckpoint(note, { ...policy, logs });
    if (!logs.some((l) => Buffer.from(l.publicKey).equals(Buffer.from(log.publicKey))))
      throw new Inconsistent("--vkey is not a log key of the policy");
    requireQuorum(w);
    console.log(
      `checkpoint ${w.origin} size ${w.treeSize}: cosigned by ${w.cosigners.map((c) => `${c.witness} (${describeCosignedAt(c.timestamp)})`).join(", ") || "no witness"}; quorum ${w.quorum.rule} met`,
    );
    cp = w;
  } else {
    cp = verifyLogCheckpoint(note, log);
    console.log(`checkpoint ${cp.origin} size ${cp.treeSize}: signed by the log key`);
  }

  if (saved && saved.origin !== cp.origin) throw new Inconsistent(`the state file follows ${saved.origin}, not ${cp.origin}`);
  const range = new CompactRange(
    saved?.size ?? 0,
    (saved?.subtrees ?? []).map((s) => ({ level: s.level, hash: base64ToBytes(s.hash) })),
  );
  if (cp.treeSize < range.size) throw new Inconsistent(`the log shrank: size ${cp.treeSize} after ${range.size}`);
  if (saved && bytesToBase64(range.root()) !== saved.root)
    throw new Inconsistent("the state file is corrupt (its subtrees do not make its root)");

  const from = range.size;
  let watched = 0;
  let sealedSeen = 0;
  let successor: ReturnType<typeof verifySuccessor> | null = null;
  for (let index = from; index < cp.treeSize; ) {
    const tile = Math.floor(index / TILE_WIDTH);
    const width = Math.min(TILE_WIDTH, cp.treeSize - tile * TILE_WIDTH);
    const entries = decodeEntryBundle(await get(`${prefix}${tilePath({ level: "entries", index: tile, width })}`), width);
    for (let i = index - tile * TILE_WIDTH; i < width; i++, index++) {
      const bytes = entries[i]!;
      let a: Parameters<typeof leafData>[0];
      try {
        a = parseJson(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as typeof a;
      } catch {
        throw new Inconsistent(`entry ${index} is not JSON`);
      }
      if (!Buffer.from(leafData(a)).equals(Buffer.from(bytes)))
        throw new Inconsistent(`entry ${index} is not an attestation in canonical form`);
      const key = await issuerKey(a.kid);
      if (key.issuerId !== a.issuer_id) throw new Inconsistent(`entry ${index}: key ${a.kid} belongs to another issuer`);
      if (!verifyAttestationSignature(a, key.publicKey))
        throw new Inconsistent(`entry ${index}: the signature does not verify under key ${a.kid}`);
      range.append(leafHash(bytes));
      if (successor)
        throw new Inconsistent(`entry ${index} follows the log's successor statement (entry ${index - 1}): a log that ended grew`);
      const payload = a.payload as Record<string, unknown>;
      if (isSuccessorStatement(payload) && log.origin)
        successor = verifySuccessor({ ...a, payload }, { origin: log.origin!, publicKey: log.publicKey });
      // A sealed entry shows only its commitment: whose it is stays with its owner's proof.
      if (isSealedPayload(a.payload)) sealedSeen++;
      if (watch.has(a.issuer_id)) {
        watched++;
        const hash = typeof payload.content_hash === "string" ? ` content_hash ${payload.content_hash}` : "";
        console.log(`watch: entry ${index} ${a.created_at} attestation ${a.id} by issuer ${a.issuer_id}${hash}`);
      }
    }
  }
  if (!Buffer.from(range.root()).equals(Buffer.from(cp.rootHash))) {
    throw new Inconsistent(`the tree rebuilt from entries 0…${cp.treeSize - 1} does not have the checkpoint's root`);
  }
  if (cp.treeSize === from) console.log("no new entries");
  else
    console.log(
      `entries ${from}…${cp.treeSize - 1}: ${cp.treeSize - from} new, each canonical and signed by the key its kid names; ${sealedSeen} sealed${watch.size ? `; ${watched} by watched issuers` : ""}`,
    );
  const how = !saved
    ? "rebuilt from the first entry"
    : saved.size === cp.treeSize
      ? "is the size seen before, with the same root"
      : `extends size ${saved.size} seen before`;
  console.log(`OK size ${cp.treeSize} ${how}: consistent`);
  if (values.state)
    saveState({
      origin: cp.origin,
      vkey,
      size: range.size,
      root: bytesToBase64(range.root()),
      subtrees: range.subtrees.map((s) => ({ level: s.level, hash: bytesToBase64(s.hash) })),
    });
  return successor;
}

main().catch((err) => {
  if (err instanceof Inconsistent || (err as { code?: string }).code)
    die(1, `INCONSISTENT ${(err as { code?: string }).code ?? ""} ${(err as Error).message}`.replace("  ", " "));
  die(2, `error: ${(err as Error).message}`);
});
