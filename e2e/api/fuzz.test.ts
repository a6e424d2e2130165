// Garbage in, never a 500 out; and odd-but-valid payloads round-trip and verify.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { canonicalJson, verifyProofBundle } from "@/lib/verify";
import { api, baseUrls, logKey, proofBundle, orgWithIssuer } from "./helpers";

/** Mulberry32: a seeded PRNG so a failing run can be replayed with HALLMARK_FUZZ_SEED. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const seed = Number(process.env.HALLMARK_FUZZ_SEED ?? Date.now() % 1_000_000);
const rand = prng(seed);
const int = (n: number) => Math.floor(rand() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;

const STRINGS = ["", "a", "ü", "😀", "\u0000", "%", "%00", "%ff", "..", "null", "-1", "1e999", "<script>", "'; DROP TABLE x;--", "a".repeat(3000)];

function randomJson(depth = 0): unknown {
  switch (int(depth > 3 ? 4 : 7)) {
    case 0: return pick([null, true, false]);
    case 1: return pick([0, -1, 1.5, 1e308, -1e-308, 2 ** 53 + 2, 12345678901234567890]);
    case 2: return pick(STRINGS);
    case 3: return randomUUID();
    case 4: return Array.from({ length: int(4) }, () => randomJson(depth + 1));
    default: return Object.fromEntries(Array.from({ length: int(4) }, () => [pick([...STRINGS, "issuer_id", "payload", "scopes", "name", "domain", "__proto__"]), randomJson(depth + 1)]));
  }
}

function randomBody(issuerId: string): string | Uint8Array {
  switch (int(8)) {
    case 0: return new Uint8Array(Array.from({ length: int(200) }, () => int(256)));
    case 1: return JSON.stringify(randomJson());
    case 2: return JSON.stringify({ issuer_id: pick([issuerId, randomUUID(), ...STRINGS]), payload: randomJson() });
    case 3: return "[".repeat(50_000 + int(50_000)) + "]".repeat(int(2) ? 100_000 : 0);
    case 4: return `{"issuer_id":"${issuerId}","payload":${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}`;
    case 5: return JSON.stringify({ name: randomJson(), scopes: randomJson(), domain: randomJson(), daily_quota: randomJson() });
    case 6: return JSON.stringify({ issuer_id: issuerId, payload: { n: pick(["1e999", "-0", "1E+2"]) } }).replace(/"(1e999|-0|1E\+2)"/, "$1");
    default: return JSON.stringify({ issuer_id: issuerId, payload: randomJson() }).slice(0, -int(5) - 1);
  }
}

function randomPath(issuerId: string): string {
  const seg = () => encodeURIComponent(pick([...STRINGS, randomUUID(), issuerId])) || "x";
  const base = pick([
    "/v1/attestations", `/v1/attestations/${seg()}`, `/v1/attestations/${seg()}/proof-bundle`, "/v1/issuers", `/v1/issuers/${seg()}`,
    `/v1/issuers/${seg()}/keys`, "/v1/api-keys", `/v1/api-keys/${seg()}/revoke`, "/v1/log", "/v1/log/checkpoint",
    `/v1/log/consistency?first=${seg()}&second=${seg()}`, `/v1/${seg()}`, `/v1/${seg()}/${seg()}/${seg()}`,
  ]);
  return int(4) ? base : `${base}${base.includes("?") ? "&" : "?"}${seg()}=${seg()}`;
}

describe(`fuzz (seed ${seed})`, () => {
  let key: string;
  let issuerId: string;
  beforeAll(async () => {
    ({ key, issuerId } = await orgWithIssuer());
  });

  it("never answers 5xx to garbage bodies, paths, methods and headers; every error is problem+json", async () => {
    const types = ["application/json", "application/json; charset=utf-8", "text/plain", "application/problem+json", "", "*/*", "application/json; charset=latin1"];
    const failures: string[] = [];
    const runs = Array.from({ length: 80 }, async (_, i) => {
      const method = pick(["GET", "POST", "POST", "POST", "PUT", "PATCH", "DELETE"]);
      const path = method === "POST" && int(2) ? pick(["/v1/attestations", "/v1/issuers", "/v1/api-keys"]) : randomPath(issuerId);
      const headers: Record<string, string> = {};
      const type = pick(types);
      if (type) headers["content-type"] = type;
      const k = pick([key, key, key, "", "garbage", `${key} `, key.slice(0, -1)]);
      if (k) headers["x-api-key"] = k;
      const raw = method === "GET" ? undefined : randomBody(issuerId);
      const res = await api(path, { method, raw, headers, instance: i % baseUrls.length });
      const problem = /^application\/problem\+json/.test(res.headers.get("content-type") ?? "");
      // The API's errors are problem+json; a path that normalises outside /v1 ("/v1/..") is a page.
      const inApi = new URL(path, baseUrls[0]).pathname.startsWith("/v1");
      if (res.status >= 500 || (res.status >= 400 && inApi && !problem)) {
        failures.push(`${method} ${path.slice(0, 120)} [${type}] ${typeof raw === "string" ? raw.slice(0, 80) : "bytes"} -> ${res.status} ${res.text.slice(0, 200)}`);
      }
    });
    await Promise.all(runs);
    expect(failures, `seed ${seed}`).toEqual([]);
  });

  it("accepts odd but valid payloads, returns them as signed, and their proofs verify", async () => {
    const raws = [
      '{"__proto__":{"polluted":true},"a":1}',
      '{"constructor":{"prototype":{"x":1}},"toString":"s"}',
      '{"":"empty key","\\u0000":"nul key","😀":"emoji","é":"e-acute","\\ud83d\\ude00":"pair"}',
      '{"n":[-0,0.1,1e21,1e-7,12345678901234567890,9007199254740993,5e-324,1.7976931348623157e308]}',
      '{"z":1,"a":{"y":[{"c":3,"b":2}],"x":null},"A":true}',
      JSON.stringify({ s: "\n\t\\\"\u2028\u007f\u00ad".repeat(20) }),
    ];
    const logPublicKey = await logKey();
    for (const payloadRaw of raws) {
      const res = await api("/v1/attestations", { key, raw: `{"issuer_id":"${issuerId}","payload":${payloadRaw}}`, headers: { "content-type": "application/json" } });
      expect(res.status, `${payloadRaw} -> ${res.text}`).toBe(201);
      const sent = JSON.parse(payloadRaw);
      expect(canonicalJson(res.body.payload), payloadRaw).toBe(canonicalJson(sent));
      const fetched = await api(`/v1/attestations/${res.body.id}`, { key });
      expect(canonicalJson(fetched.body.payload), payloadRaw).toBe(canonicalJson(sent));
      const bundle = await proofBundle(key, res.body.id);
      expect(canonicalJson(bundle.attestation.payload)).toBe(canonicalJson(sent));
      const result = verifyProofBundle(bundle, { logPublicKey });
      expect(result.ok, `${payloadRaw}: ${JSON.stringify(result)}`).toBe(true);
    }
  });
});
