// A real RFC 3161 time-stamping authority for tests: OpenSSL's `ts` command signs, behind the
// HTTP transport of RFC 3161 §3.4 (POST application/timestamp-query, answered with
// application/timestamp-reply). Its authority is made fresh: a root CA and a TSA certificate
// whose only key purpose is timeStamping, marked critical (RFC 3161 §2.3).
//
// Every answer the protocol has: a granted token; a rejection TimeStampResp (OpenSSL's own for a
// digest or policy it does not accept, this wrapper's badDataFormat for a body that is not a
// TimeStampReq); and the transport's refusals (405 for another method, 415 for another type,
// 413 for an oversized body). `mode` makes it misbehave on purpose: down (503), a garbage body,
// a token over other bytes, a rejection of every request (unacceptedPolicy), or no answer at all
// until the mode changes (hold: as slow as a test needs, with no clock to race).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { HeldRequests } from "../peers/held-requests";

const MAX_QUERY_BYTES = 16 * 1024;
export const TSA_POLICY = "1.3.6.1.4.1.55555.1";

const CONFIG = `
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = unused
[ v3_ca ]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[ v3_tsa ]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature
extendedKeyUsage = critical, timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ v3_not_tsa ]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
[ tsa_config ]
dir = .
serial = ./serial
crypto_device = builtin
signer_cert = ./tsa.pem
certs = ./ca.pem
signer_key = ./tsa.key
signer_digest = sha256
default_policy = ${TSA_POLICY}
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;

const NEW_KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];

export type TsaMode = "ok" | "down" | "garbage" | "wrong-imprint" | "reject" | "hold";

export interface TestTsaOptions {
  /** The TSA certificate's common name. */
  name?: string;
  /** Serve POST /_test/mode (body: a TsaMode) and GET /_test/seen: only for tests. */
  testControl?: boolean;
}

export class TestTsa {
  readonly dir: string;
  readonly name: string;
  mode: TsaMode = "ok";
  /** Requests kept unanswered in "hold" mode, answered when the mode changes. */
  private readonly held = new HeldRequests();
  /** Requests answered, by kind, to show what a client sent. */
  readonly seen = { granted: 0, rejected: 0, refused: 0 };
  private server: http.Server | undefined;

  private readonly testControl: boolean;

  constructor(opts: TestTsaOptions = {}) {
    this.name = opts.name ?? "Hallmark Test TSA";
    this.testControl = opts.testControl ?? false;
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-tsa-"));
    fs.writeFileSync(path.join(this.dir, "tsa.cnf"), CONFIG);
    fs.writeFileSync(path.join(this.dir, "serial"), "01\n");
    this.selfSigned("ca", `${this.name} Root`);
    this.issue("tsa", this.name, "ca", "v3_tsa");
    // A certificate of the same root that is not for time-stamping, for tests that must refuse it.
    this.issue("web", `${this.name} web server`, "ca", "v3_not_tsa");
  }

  /** Runs OpenSSL in this TSA's folder, where its config (tsa.cnf), keys and certificates are; answers its stdout. */
  openssl(...args: string[]): Buffer {
    return execFileSync("openssl", args, { cwd: this.dir, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 20 });
  }

  /** A new P-256 key `<file>.key` and a self-signed CA certificate `<file>.pem` for `name`. */
  selfSigned(file: string, name: string): void {
    this.openssl(
      "req",
      "-x509",
      "-new",
      ...NEW_KEY,
      "-keyout",
      `${file}.key`,
      "-out",
      `${file}.pem`,
      "-days",
      "3650",
      "-subj",
      `/CN=${name}`,
      "-config",
      "tsa.cnf",
      "-extensions",
      "v3_ca",
    );
  }

  /**
   * A certificate `<file>.pem` for `name`, issued by `<issuer>.pem` and `<issuer>.key` under the
   * config's `profile` section, of a new key `<file>.key`, or of `<key>.key` when one is named.
   */
  issue(file: string, name: string, issuer: string, profile: "v3_ca" | "v3_tsa" | "v3_not_tsa", key?: string): void {
    const keyArgs = key ? ["-key", `${key}.key`] : [...NEW_KEY, "-keyout", `${file}.key`];
    this.openssl("req", "-new", ...keyArgs, "-out", `${file}.csr`, "-subj", `/CN=${name}`, "-config", "tsa.cnf");
    this.openssl(
      "x509",
      "-req",
      "-in",
      `${file}.csr`,
      "-CA",
      `${issuer}.pem`,
      "-CAkey",
      `${issuer}.key`,
      "-CAcreateserial",
      "-out",
      `${file}.pem`,
      "-days",
      "3650",
      "-extfile",
      "tsa.cnf",
      "-extensions",
      profile,
    );
  }

  /** The root CA (PEM): what a verifier pins. */
  get rootPem(): string {
    return fs.readFileSync(path.join(this.dir, "ca.pem"), "utf8");
  }

  /** The TSA's own certificate (PEM): pinnable instead of the root. */
  get certPem(): string {
    return fs.readFileSync(path.join(this.dir, "tsa.pem"), "utf8");
  }

  /**
   * Signs a TimeStampReq (DER) as OpenSSL's TSA, answering the TimeStampResp (DER); `signer` are
   * `ts -reply` options that sign with another certificate (-signer, -inkey, -chain).
   */
  reply(query: Uint8Array, signer: string[] = []): Buffer {
    const file = path.join(this.dir, `q-${process.pid}-${Math.random().toString(36).slice(2)}.tsq`);
    fs.writeFileSync(file, query);
    try {
      return this.openssl("ts", "-reply", "-config", "tsa.cnf", "-section", "tsa_config", "-queryfile", file, ...signer);
    } finally {
      fs.rmSync(file, { force: true });
    }
  }

  /** A token over `data` as OpenSSL's TSA signs it (as `signer` says, else as the TSA): the query made by OpenSSL too. */
  tokenOver(data: Uint8Array, signer: string[] = []): Buffer {
    const file = `data-${process.pid}-${Math.random().toString(36).slice(2)}`;
    fs.writeFileSync(path.join(this.dir, file), data);
    const query = this.openssl("ts", "-query", "-data", file, "-sha256", "-cert");
    fs.writeFileSync(path.join(this.dir, `${file}.tsr`), this.reply(query, signer));
    return this.openssl("ts", "-reply", "-in", `${file}.tsr`, "-token_out");
  }

  /**
   * The token re-signed (OpenSSL's cms) by a certificate of the same root that is not a TSA's:
   * OpenSSL's TSA refuses to sign with one, so a test that must refuse such a token forges it.
   */
  signedByNonTsa(token: Uint8Array): Buffer {
    fs.writeFileSync(path.join(this.dir, "token.der"), token);
    const tstInfo = ["-verify", "-inform", "DER", "-in", "token.der", "-noverify", "-binary", "-out", "tst.der"];
    this.openssl("cms", ...tstInfo);
    const sign = ["-sign", "-binary", "-nodetach", "-in", "tst.der", "-econtent_type", "1.2.840.113549.1.9.16.1.4"];
    this.openssl(
      "cms",
      ...sign,
      "-signer",
      "web.pem",
      "-inkey",
      "web.key",
      "-md",
      "sha256",
      "-nosmimecap",
      "-outform",
      "DER",
      "-out",
      "forged.der",
    );
    return fs.readFileSync(path.join(this.dir, "forged.der"));
  }

  private async control(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let text = "";
    for await (const chunk of req) text += chunk;
    // A test's control calls come seconds apart: a kept-alive socket the server has just timed
    // out would fail the next one ("other side closed"), so each control answer closes its own.
    const close = { connection: "close" };
    if (req.url === "/_test/mode" && req.method === "POST") {
      this.mode = text.trim() as TsaMode;
      if (this.mode !== "hold") this.held.release();
      res.writeHead(204, close).end();
    } else if (req.url === "/_test/seen")
      res.writeHead(200, { ...close, "content-type": "application/json" }).end(JSON.stringify({ ...this.seen, held: this.held.ids() }));
    else res.writeHead(404, { ...close, "content-type": "text/plain" }).end("no such control\n");
  }

  async listen(port = 0, host = "127.0.0.1"): Promise<string> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
    return `http://${host}:${(this.server.address() as AddressInfo).port}/`;
  }

  async close(): Promise<void> {
    if (this.server) await new Promise((resolve) => this.server!.close(resolve));
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const refuse = (status: number, headers: Record<string, string> = {}) => {
      this.seen.refused++;
      res.writeHead(status, { "content-type": "text/plain", ...headers }).end(`${status}\n`);
    };
    if (this.testControl && req.url?.startsWith("/_test/")) return this.control(req, res);
    if (this.mode === "hold") return this.held.hold(res, () => void this.handle(req, res));
    if (this.mode === "down") return refuse(503, { "retry-after": "1" });
    if (req.method !== "POST") return refuse(405, { allow: "POST" });
    if (req.headers["content-type"] !== "application/timestamp-query") return refuse(415);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_QUERY_BYTES) return refuse(413);
      chunks.push(chunk as Buffer);
    }
    const query = Buffer.concat(chunks);
    const reply = (body: Uint8Array): void => void res.writeHead(200, { "content-type": "application/timestamp-reply" }).end(body);
    if (this.mode === "garbage") return reply(Buffer.from("not a TimeStampResp"));
    if (this.mode === "reject") {
      this.seen.rejected++;
      return reply(rejection(15 /* unacceptedPolicy */, "this TSA accepts no request now"));
    }
    if (!isTimeStampReq(query)) {
      this.seen.rejected++;
      return reply(rejection(5 /* badDataFormat */, "the body is not a TimeStampReq"));
    }
    let answer: Buffer;
    try {
      answer = this.reply(this.mode === "wrong-imprint" ? otherImprint(query) : query);
    } catch {
      this.seen.rejected++;
      return reply(rejection(25 /* systemFailure */, "the TSA could not sign"));
    }
    if (statusOf(answer) === 0 || statusOf(answer) === 1) this.seen.granted++;
    else this.seen.rejected++;
    reply(answer);
  }
}

function isTimeStampReq(der: Uint8Array): boolean {
  try {
    const asn = asn1js.fromBER(der);
    if (asn.offset !== der.byteLength) return false;
    new pkijs.TimeStampReq({ schema: asn.result });
    return true;
  } catch {
    return false;
  }
}

const statusOf = (der: Uint8Array) => new pkijs.TimeStampResp({ schema: asn1js.fromBER(der).result }).status.status;

/** The same request over other bytes: a TSA that stamps something else than it was asked. */
function otherImprint(query: Uint8Array): Uint8Array {
  const req = new pkijs.TimeStampReq({ schema: asn1js.fromBER(query).result });
  const hashed = new Uint8Array(req.messageImprint.hashedMessage.valueBlock.valueHexView);
  hashed[0]! ^= 0xff;
  req.messageImprint.hashedMessage = new asn1js.OctetString({ valueHex: hashed });
  return new Uint8Array(req.toSchema().toBER());
}

/** A TimeStampResp refusing the request (RFC 3161 §2.4.2: status rejection with a failInfo bit). */
function rejection(failBit: number, text: string): Buffer {
  const bits = new Uint8Array(Math.floor(failBit / 8) + 1);
  bits[Math.floor(failBit / 8)] = 0x80 >> (failBit % 8);
  const unused = 7 - (failBit % 8);
  const status = new pkijs.PKIStatusInfo({
    status: 2,
    statusStrings: [new asn1js.Utf8String({ value: text })],
    failInfo: new asn1js.BitString({ valueHex: bits, unusedBits: unused }),
  });
  return Buffer.from(new pkijs.TimeStampResp({ status }).toSchema().toBER());
}
