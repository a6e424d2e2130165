// A verifier or monitor on another web site: a page on another origin reads Hallmark's log and a
// public protection's proofs with fetch(), and checks them itself with WebCrypto (Ed25519 and
// SHA-256) and RFC 9162's inclusion proof, none of Hallmark's code in the page. It cannot send
// an API key or a cookie it could read the answer of.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./support";
import { mint, tempDir, type Minted } from "./visitor-fixtures";
import { seedConsumer } from "../accounts";

const hallmark = (process.env.HALLMARK_TEST_BASE_URLS ?? "").split(",")[0]!;
let elsewhere: http.Server;
let elsewhereUrl: string;
let work: Minted;
let secret: Minted;
let apiKey: string;

test.beforeAll(async () => {
  // The other site: a blank page on its own origin (another host name and port).
  elsewhere = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!doctype html><title>A monitor elsewhere</title><h1>Monitor</h1>");
  });
  await new Promise<void>((r) => elsewhere.listen(0, "127.0.0.1", r));
  elsewhereUrl = `http://localhost:${(elsewhere.address() as AddressInfo).port}/`;
  const creator = await seedConsumer({ plan: "creator", name: "Cora Cross" });
  apiKey = creator.apiKey;
  const dir = tempDir();
  work = await mint(apiKey, dir, { title: "Seen from afar", visibility: "public", fileName: "afar.txt" });
  secret = await mint(apiKey, dir, { title: "Not for other sites", visibility: "private", fileName: "hidden.txt" });
});

test.afterAll(() => new Promise<void>((r) => elsewhere.close(() => r())));

test("a page on another origin fetches the log and a public proof and verifies them itself", async ({ page }) => {
  await page.goto(elsewhereUrl);
  expect(new URL(page.url()).origin).not.toBe(new URL(hallmark).origin);
  const result = await page.evaluate(
    async ({ base, id }) => {
      const b64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
      const hex = (u: Uint8Array) => Array.from(u, (x) => x.toString(16).padStart(2, "0")).join("");
      const sha256 = async (...parts: Uint8Array[]) => {
        const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        let at = 0;
        for (const p of parts) all.set(p, (at += p.length) - p.length);
        return new Uint8Array(await crypto.subtle.digest("SHA-256", all));
      };
      const get = async (path: string) => {
        const res = await fetch(`${base}${path}`);
        return { status: res.status, res };
      };

      const log = await (await get("/v1/log")).res.json();
      const policy = await (await get("/v1/log/policy")).res.text();
      const checkpoint = await (await get("/v1/log/checkpoint")).res.text();
      const bundle = await (await get(`/v1/protections/${id}/proof-bundle`)).res.json();
      const proofText = await (await get(`/v1/protections/${id}/tlog-proof`)).res.text();

      // The tlog-proof (C2SP): header, extra (the leaf), index, proof hashes, blank line, checkpoint.
      const [head, note] = [proofText.slice(0, proofText.indexOf("\n\n") + 1), proofText.slice(proofText.indexOf("\n\n") + 2)];
      const lines = head.trimEnd().split("\n");
      const leaf = b64(lines[1]!.slice("extra ".length));
      const index = Number(lines[2]!.slice("index ".length));
      const proof = lines.slice(3).map(b64);
      const [origin, sizeLine, rootLine] = note.split("\n");
      const size = Number(sizeLine);
      const leafHash = await sha256(new Uint8Array([0]), leaf);

      // RFC 9162 2.1.3.2: fold the proof from the leaf to the root.
      let fn = index;
      let sn = size - 1;
      let r = leafHash;
      for (const p of proof) {
        if (sn === 0) return { error: "proof too long" };
        if (fn % 2 === 1 || fn === sn) {
          r = await sha256(new Uint8Array([1]), p, r);
          if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn >> 1, sn >> 1];
        } else r = await sha256(new Uint8Array([1]), r, p);
        [fn, sn] = [fn >> 1, sn >> 1];
      }
      const included = sn === 0 && hex(r) === hex(b64(rootLine!));

      // The log's signature on the checkpoint, with its C2SP verifier key: name+keyid+base64(0x01 || key).
      const [keyName, keyIdHex, ...rest] = String(log.verifier_key).split("+");
      const rawKey = b64(rest.join("+")).slice(1); // base64 has "+" of its own
      const key = await crypto.subtle.importKey("raw", rawKey, { name: "Ed25519" }, false, ["verify"]);
      const body = note.slice(0, note.indexOf("\n\n") + 1);
      const sigLine = note.split("\n").find((l) => l.startsWith(`— ${keyName} `))!;
      const sig = b64(sigLine.split(" ")[2]!);
      const signed =
        hex(sig.slice(0, 4)) === keyIdHex && (await crypto.subtle.verify("Ed25519", key, sig.slice(4), new TextEncoder().encode(body)));

      // The entry as the log's level-0 tile holds it.
      const tileIndex = Math.floor(index / 256);
      const width = Math.min(256, size - tileIndex * 256);
      const digits = String(tileIndex)
        .padStart(Math.ceil(String(tileIndex).length / 3) * 3 || 3, "0")
        .match(/.../g)!;
      const tilePath = `/v1/log/tile/0/${digits.map((d, i) => (i < digits.length - 1 ? `x${d}` : d)).join("/")}${width < 256 ? `.p/${width}` : ""}`;
      const tile = new Uint8Array(await (await get(tilePath)).res.arrayBuffer());
      const inTile = hex(tile.slice((index % 256) * 32, (index % 256) * 32 + 32)) === hex(leafHash);

      // What another site may not do: send an API key (no preflight grants it), read an answer
      // sent with cookies, or learn anything of a private protection.
      const refused = async (init: RequestInit, path: string) =>
        fetch(`${base}${path}`, init).then(
          () => false,
          () => true,
        );
      return {
        originIsTheLogs: origin === log.origin,
        policyNamesLog: policy.includes(String(log.verifier_key)),
        checkpointIsTheLogs: checkpoint.startsWith(`${origin}\n`),
        bundleId: bundle.attestation?.id,
        leafId: JSON.parse(new TextDecoder().decode(leaf)).id,
        included,
        signed,
        inTile,
        apiKeyRefused: await refused({ headers: { "x-api-key": "hk_anything" } }, "/v1/consumer/protections"),
        publicWithKeyRefused: await refused({ headers: { "x-api-key": "hk_anything" } }, `/v1/protections/${id}`),
        credentialedRefused: await refused({ credentials: "include" }, `/v1/protections/${id}/proof-bundle`),
      };
    },
    { base: hallmark, id: work.protection_id },
  );
  expect(result).toEqual({
    originIsTheLogs: true,
    policyNamesLog: true,
    checkpointIsTheLogs: true,
    bundleId: work.attestation_id,
    leafId: work.attestation_id,
    included: true,
    signed: true,
    inTile: true,
    apiKeyRefused: true,
    publicWithKeyRefused: true,
    credentialedRefused: true,
  });

  // A private protection: another site reads the same 404 as anyone without the owner's credentials.
  const privateStatus = await page.evaluate(async ({ base, id }) => (await fetch(`${base}/v1/protections/${id}/proof-bundle`)).status, {
    base: hallmark,
    id: secret.protection_id,
  });
  expect(privateStatus).toBe(404);
});
