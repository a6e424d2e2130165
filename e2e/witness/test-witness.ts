// A C2SP tlog-witness (https://c2sp.org/tlog-witness) for tests and for trying witnessing by
// hand: add-checkpoint with every answer the spec defines (200, 400, 403, 404, 409 with
// text/x.tlog.size, 422) and the monitoring endpoint. Written from the specs with node:crypto
// (and @noble/post-quantum for ML-DSA-44), deliberately sharing no code with Hallmark's own
// verifier, so that the two check each other.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { ml_dsa44 } from "@noble/post-quantum/ml-dsa.js";
import { HeldRequests } from "../peers/held-requests";

export type Algorithm = "ed25519" | "ml-dsa-44";
/**
 * How the witness behaves, for tests: "down" resets every connection, "hold" keeps each request
 * unanswered until the mode changes (a witness as slow as a test needs, with no clock to race),
 * "lose-next" handles the next add-checkpoint (a 200 is persisted) but resets the connection
 * instead of answering, then turns normal.
 */
export type Mode = "normal" | "down" | "hold" | "lose-next";

export interface WitnessOptions {
  name: string;
  algorithm?: Algorithm;
  /** 32-byte seed of the witness key; random when absent. */
  seed?: Uint8Array;
  /** Log verifier keys (`<origin>+<id>+<base64(0x01 ‖ key)>`) the witness trusts. */
  logKeys?: string[];
  /** A JSON file the witness keeps its state in (written before each 200). */
  stateFile?: string;
  /** Serve /_test/* (mode, trust, submissions): only for tests. */
  testControl?: boolean;
  /**
   * One key per origin, as the public witness network's witnesses keep it (Sunlight's refuses a
   * known origin with a new key): trusting a second key for an origin throws.
   */
  oneKeyPerOrigin?: boolean;
}

interface Stored {
  size: number;
  root: string; // base64
  note: string; // the cosigned checkpoint, with our cosignature
}

const sha256 = (...parts: (Uint8Array | string)[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
};
const EMPTY_ROOT = sha256();
const node = (l: Uint8Array, r: Uint8Array) => sha256(Buffer.from([1]), l, r);
const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};
const DECIMAL = /^(0|[1-9][0-9]{0,15})$/;
const B64_HASH = /^[A-Za-z0-9+/]{43}=$/;

/** RFC 9162 §2.1.4.2, as written there. */
export function consistencyHolds(first: number, second: number, firstHash: Buffer, secondHash: Buffer, proof: Buffer[]): boolean {
  if (first === second) return proof.length === 0 && firstHash.equals(secondHash);
  if (first === 0 || first > second || proof.length === 0) return false;
  let p = first;
  while (p % 2 === 0) p /= 2;
  const path = p === 1 ? [firstHash, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = node(c, fr);
      sr = node(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = node(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(firstHash) && sr.equals(secondHash);
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly contentType = "text/plain; charset=utf-8",
  ) {
    super(message);
  }
}

export class TestWitness {
  readonly name: string;
  readonly algorithm: Algorithm;
  readonly vkey: string;
  private readonly signRaw: (msg: Uint8Array) => Uint8Array;
  private readonly keyId: Buffer;
  private readonly logs = new Map<string, { keyId: Buffer; key: KeyObject }[]>();
  private state: Record<string, Stored> = {};
  private queue: Promise<unknown> = Promise.resolve();
  private server?: http.Server;
  mode: Mode = "normal";
  /** Requests kept unanswered in "hold" mode, answered when the mode changes. */
  private readonly held = new HeldRequests();
  /** Every add-checkpoint answered: the sizes asked for and the status given. */
  readonly submissions: { origin: string; old: number; size: number; status: number; lost?: boolean }[] = [];

  constructor(private readonly opts: WitnessOptions) {
    this.name = opts.name;
    this.algorithm = opts.algorithm ?? "ed25519";
    let publicKey: Uint8Array;
    if (this.algorithm === "ed25519") {
      const priv = opts.seed
        ? createPrivateKey({
            key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), opts.seed]),
            format: "der",
            type: "pkcs8",
          })
        : generateKeyPairSync("ed25519").privateKey;
      publicKey = new Uint8Array(createPublicKey(priv).export({ format: "der", type: "spki" }).subarray(-32));
      this.signRaw = (msg) => new Uint8Array(sign(null, msg, priv));
    } else {
      const keys = ml_dsa44.keygen(opts.seed ?? crypto.getRandomValues(new Uint8Array(32)));
      publicKey = keys.publicKey;
      this.signRaw = (msg) => ml_dsa44.sign(msg, keys.secretKey);
    }
    const type = this.algorithm === "ed25519" ? 0x04 : 0x06;
    this.keyId = sha256(this.name, Buffer.from([0x0a, type]), publicKey).subarray(0, 4);
    this.vkey = `${this.name}+${this.keyId.toString("hex")}+${Buffer.concat([Buffer.from([type]), publicKey]).toString("base64")}`;
    for (const k of opts.logKeys ?? []) this.trust(k);
    if (opts.stateFile && fs.existsSync(opts.stateFile)) this.state = JSON.parse(fs.readFileSync(opts.stateFile, "utf8"));
  }

  /** Trusts a log verifier key (Ed25519, type 0x01). */
  trust(vkey: string): void {
    const [origin, id, b64] = [
      vkey.slice(0, vkey.indexOf("+")),
      vkey.split("+")[1],
      vkey.slice(vkey.indexOf("+", vkey.indexOf("+") + 1) + 1),
    ];
    const raw = Buffer.from(b64, "base64");
    if (!origin || raw.length !== 33 || raw[0] !== 0x01) throw new Error(`not an Ed25519 log verifier key: ${vkey}`);
    const keyId = sha256(origin, Buffer.from([0x0a, 0x01]), raw.subarray(1)).subarray(0, 4);
    if (keyId.toString("hex") !== id) throw new Error("log verifier key ID does not match its key");
    if (this.opts.oneKeyPerOrigin && this.logs.has(origin) && !this.logs.get(origin)!.some((k) => k.keyId.equals(keyId)))
      throw new Error(`this witness already knows ${origin} with another key: a new key must be a new log`);
    const key = createPublicKey({
      key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), raw.subarray(1)]),
      format: "der",
      type: "spki",
    });
    this.logs.set(origin, [...(this.logs.get(origin) ?? []), { keyId, key }]);
  }

  /**
   * For tests: the witness now remembers another root for each log's size it holds, as if the
   * log had shown it a fork; the log's next checkpoint is then inconsistent with it (422).
   */
  forkView(): void {
    for (const s of Object.values(this.state)) s.root = sha256("fork", s.root).toString("base64");
  }

  /** For tests: the witness forgets every log (as a new witness would start). */
  forget(): void {
    this.state = {};
    if (this.opts.stateFile) fs.writeFileSync(this.opts.stateFile, JSON.stringify(this.state));
  }

  /** The latest size this witness cosigned for `origin` (0 if none). */
  cosignedSize(origin: string): number {
    return this.state[origin]?.size ?? 0;
  }

  private cosign(origin: string, size: number, root: Buffer, body: string): string {
    const t = Math.floor(Date.now() / 1000);
    let msg: Uint8Array;
    if (this.algorithm === "ed25519") {
      msg = Buffer.from(`cosignature/v1\ntime ${t}\n${body}`);
    } else {
      msg = Buffer.concat([
        Buffer.from("subtree/v1\n\0"),
        Buffer.from([Buffer.byteLength(this.name)]),
        Buffer.from(this.name),
        u64(t),
        Buffer.from([Buffer.byteLength(origin)]),
        Buffer.from(origin),
        u64(0),
        u64(size),
        root,
      ]);
    }
    return `\u2014 ${this.name} ${Buffer.concat([this.keyId, u64(t), this.signRaw(msg)]).toString("base64")}\n`;
  }

  /** add-checkpoint: the request body in, [status, content type, body] out. */
  async addCheckpoint(text: string): Promise<{ status: number; contentType: string; body: string }> {
    try {
      const lines = text.split("\n");
      const oldLine = /^old (0|[1-9][0-9]{0,15})$/.exec(lines[0] ?? "");
      if (!oldLine) throw new HttpError(400, "the first line must be old <size>");
      const old = Number(oldLine[1]);
      const proof: Buffer[] = [];
      let i = 1;
      for (; i < lines.length && lines[i] !== ""; i++) {
        if (!B64_HASH.test(lines[i]!)) throw new HttpError(400, "a proof line is not a base64 SHA-256 hash");
        proof.push(Buffer.from(lines[i]!, "base64"));
      }
      if (i >= lines.length) throw new HttpError(400, "no blank line before the checkpoint");
      if (proof.length > 63) throw new HttpError(400, "more than 63 proof lines");
      const note = lines.slice(i + 1).join("\n");
      const split = note.lastIndexOf("\n\n");
      if (split < 0 || !note.endsWith("\n")) throw new HttpError(400, "the checkpoint is not a signed note");
      const body = note.slice(0, split + 1);
      const [origin, sizeText, rootText] = body.split("\n");
      if (!origin || !DECIMAL.test(sizeText ?? "") || !B64_HASH.test(rootText ?? "")) throw new HttpError(400, "malformed checkpoint body");
      const size = Number(sizeText);
      const root = Buffer.from(rootText!, "base64");
      const keys = this.logs.get(origin);
      if (!keys) throw new HttpError(404, `unknown log origin ${origin}`);
      let verified = false;
      for (const line of note.slice(split + 2, -1).split("\n")) {
        const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
        if (!m) throw new HttpError(400, "malformed signature line");
        if (m[1] !== origin) continue;
        const raw = Buffer.from(m[2]!, "base64");
        const k = keys.find((x) => x.keyId.equals(raw.subarray(0, 4)));
        if (!k) continue;
        if (!verify(null, Buffer.from(body), k.key, raw.subarray(4)))
          throw new HttpError(403, "a signature by a trusted log key does not verify");
        verified = true;
      }
      if (!verified) throw new HttpError(403, "no signature by a trusted log key");
      if (old > size) throw new HttpError(400, "old size is larger than the checkpoint's");
      // Check-and-persist is atomic: one submission at a time.
      const run = this.queue.then(() => this.commit(origin, old, size, root, proof, body, note));
      this.queue = run.catch(() => {});
      return await run;
    } catch (e) {
      if (e instanceof HttpError) return { status: e.status, contentType: e.contentType, body: `${e.message}\n` };
      throw e;
    }
  }

  private async commit(origin: string, old: number, size: number, root: Buffer, proof: Buffer[], body: string, note: string) {
    const stored = this.state[origin];
    const storedSize = stored?.size ?? 0;
    if (old !== storedSize) throw new HttpError(409, String(storedSize), "text/x.tlog.size");
    if (size === 0 && !root.equals(EMPTY_ROOT)) throw new HttpError(422, "a checkpoint of size 0 must have the empty tree's root");
    if (old === 0) {
      if (proof.length !== 0) throw new HttpError(422, "old size 0 takes no proof");
    } else if (!consistencyHolds(old, size, Buffer.from(stored!.root, "base64"), root, proof)) {
      throw new HttpError(422, old === size ? "same size, another root" : "the consistency proof does not verify");
    }
    const cosignature = this.cosign(origin, size, root, body);
    this.state[origin] = { size, root: root.toString("base64"), note: note + cosignature };
    if (this.opts.stateFile) fs.writeFileSync(this.opts.stateFile, JSON.stringify(this.state));
    return { status: 200, contentType: "text/plain; charset=utf-8", body: cosignature };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse, text: string): Promise<void> {
    const url = new URL(req.url ?? "/", "http://witness");
    const control = this.opts.testControl && url.pathname.startsWith("/_test/");
    const send = (status: number, contentType: string, body: string) => {
      // A test's control calls come seconds apart: a kept-alive socket the server has just timed
      // out would fail the next one ("other side closed"), so each control answer closes its own.
      const headers = {
        "content-type": contentType,
        "content-length": Buffer.byteLength(body),
        ...(control ? { connection: "close" } : {}),
      };
      res.writeHead(status, headers);
      res.end(body);
    };
    if (control) {
      if (url.pathname === "/_test/mode" && req.method === "POST") this.setMode(text.trim() as Mode);
      else if (url.pathname === "/_test/trust" && req.method === "POST") this.trust(text.trim());
      else if (url.pathname === "/_test/fork" && req.method === "POST") this.forkView();
      else if (url.pathname === "/_test/forget" && req.method === "POST") this.forget();
      else if (url.pathname !== "/_test/submissions") return send(404, "text/plain", "no such control\n");
      const view = { mode: this.mode, vkey: this.vkey, submissions: this.submissions, held: this.held.ids() };
      return send(200, "application/json", JSON.stringify(view));
    }
    if (url.pathname === "/add-checkpoint") {
      if (req.method !== "POST") return send(405, "text/plain", "POST only\n");
      const answer = await this.addCheckpoint(text);
      const head = /^old (\d+)/.exec(text);
      const size = /\n\n[^\n]*\n(\d+)\n/.exec(text);
      const lost = this.mode === "lose-next";
      this.submissions.push({
        origin: text.split("\n\n")[1]?.split("\n")[0] ?? "",
        old: Number(head?.[1] ?? -1),
        size: Number(size?.[1] ?? -1),
        status: answer.status,
        ...(lost ? { lost } : {}),
      });
      if (lost) {
        this.mode = "normal";
        return void req.socket.destroy();
      }
      return send(answer.status, answer.contentType, answer.body);
    }
    const m = /^\/([0-9a-f]{64})\/checkpoint$/.exec(url.pathname);
    if (m && req.method === "GET") {
      const origin = Object.keys(this.state).find((o) => sha256(o).toString("hex") === m[1]);
      return origin
        ? send(200, "text/plain; charset=utf-8", this.state[origin]!.note)
        : send(404, "text/plain", "never cosigned that log\n");
    }
    send(404, "text/plain", "not found\n");
  }

  private setMode(mode: Mode): void {
    this.mode = mode;
    if (mode !== "hold") this.held.release();
  }

  listen(port: number, host = "127.0.0.1"): Promise<string> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const control = req.url?.startsWith("/_test/");
        if (!control && this.mode === "down") return req.socket.destroy();
        const go = () => this.handle(req, res, Buffer.concat(chunks).toString("utf8")).catch(() => res.writeHead(500).end());
        if (!control && this.mode === "hold") this.held.hold(res, go);
        else void go();
      });
    });
    return new Promise((resolve) =>
      this.server!.listen(port, host, () => resolve(`http://${host}:${(this.server!.address() as { port: number }).port}`)),
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.closeAllConnections();
      this.server ? this.server.close(() => resolve()) : resolve();
    });
  }
}
