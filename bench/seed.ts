// Fills a log with real attestations (signed by the API's signAttestation and appended by the
// production append path, in batches of BATCH) until it holds --leaves entries. Prints JSON
// {api_key, issuer_id, consumer_key, sample_ids} for the benchmark. Env: DATABASE_URL, HALLMARK_DATA_DIR.
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { canonicalJson } from "@/lib/verify/jcs";
import { getDb } from "@/server/db";
import { getStore } from "@/server/store";
import { appendBatch, type LogEntry } from "@/server/log/log-append";
import { getLogIdentity } from "@/server/log/log-identity";
import { createOrganization } from "@/server/domain/accounts";
import { createIssuer } from "@/server/domain/attestations";
import { getSigner } from "@/server/domain/attestations";
import { signAttestation } from "@/server/domain/attestations";
import { createApiKey } from "@/server/domain/accounts";
import { createConsumer } from "@/server/domain/accounts";
import { PLAN_REQUEST_BUDGETS } from "@/server/domain/plans";
import { CONSUMER_SCOPES } from "@/server/domain/accounts";

const BATCH = 5000;
/** Organisations whose keys make keys in the benchmark: 2,000 creations a day each (the organisation plan). */
const KEY_MAKERS = 40;
const { values } = parseArgs({ options: { leaves: { type: "string" }, samples: { type: "string", default: "2000" } } });
const target = Number(values.leaves);
if (!Number.isSafeInteger(target) || target < 1) throw new Error("--leaves <n> is required");

async function main() {
  const db = getDb();
  const { tenantId, apiKey } = await createOrganization({ name: "bench" });
  const issuer = await createIssuer({ tenantId, name: "Bench Issuer", domain: "bench.example.org" });
  const signer = await getSigner(issuer.id);
  const identity = await getLogIdentity();
  let size = Number((await db.read.log.findUniqueOrThrow({ where: { id: 1 } })).treeSize);
  const started = Date.now();
  while (size < target) {
    const entries: LogEntry[] = [];
    for (let i = 0; i < Math.min(BATCH, target - size); i++) {
      const payload = { content_hash: randomBytes(32).toString("hex"), title: `seed ${size + i}` };
      entries.push(signAttestation(signer, { tenantId, issuerId: issuer.id, payloadJcs: canonicalJson(payload) }));
    }
    await getStore().append((w) => appendBatch(w, identity, entries));
    size += entries.length;
    if (size % 100_000 < BATCH) console.error(`seeded ${size} leaves (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  // Sample ids spread over the whole log, for the read benchmark.
  const samples = Number(values.samples);
  const step = Math.max(1, Math.floor(size / samples));
  const rows = await db.read.attestation.findMany({
    where: { logIndex: { in: Array.from({ length: Math.min(samples, size) }, (_, i) => BigInt(i * step)) } },
    select: { id: true },
  });
  // A creator on the Pro plan (no monthly limit) with the largest key it allows (100,000 a minute), for the mint benchmark.
  const creatorEmail = `bench-${randomBytes(6).toString("hex")}@example.org`;
  const creatorPassword = randomBytes(12).toString("hex");
  const creator = await createConsumer({
    email: creatorEmail,
    password: creatorPassword,
    name: "Bench Creator",
    plan: "pro",
    verified: true,
  });
  const consumerKey = await createApiKey({
    tenantId: creator.tenantId,
    userId: creator.userId,
    name: "bench",
    scopes: CONSUMER_SCOPES,
    ...PLAN_REQUEST_BUDGETS.pro,
  });
  // Organisations with an owner (so each new key's notice is mailed), each with a key that may
  // make keys: the key-creation benchmark spreads its requests over them, as a plan bounds how
  // many keys one account makes a day (PLAN_ACTIVE_KEYS).
  const keyMakers: string[] = [];
  for (let i = 0; i < KEY_MAKERS; i++) {
    const org = await createOrganization({
      name: `bench keys ${i}`,
      owner: { email: `bench-keys-${i}-${randomBytes(4).toString("hex")}@example.org`, password: creatorPassword, name: "Bench Owner" },
    });
    keyMakers.push(org.apiKey);
  }
  console.log(
    JSON.stringify({
      key_makers: keyMakers,
      api_key: apiKey,
      issuer_id: issuer.id,
      consumer_key: consumerKey.secret,
      consumer_email: creatorEmail,
      consumer_password: creatorPassword,
      sample_ids: rows.map((r) => r.id),
    }),
  );
  await db.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
