import { randomBytes } from "node:crypto";
import { authenticateApiKey } from "@/server/domain/api-keys";
import { createCaller } from "@/server/api/root";
import { createOrganization } from "@/server/domain/tenants";
import { createIssuer } from "@/server/domain/issuers";
const { tenantId, apiKey } = await createOrganization({ name: "p" });
const issuer = await createIssuer({ tenantId, name: "P", domain: "p.example.org" });
let done = 0;
async function worker(until: number) {
  while (performance.now() < until) {
    const principal = await authenticateApiKey(apiKey);
    await createCaller({ principal }).attestations.create({ issuer_id: issuer.id, payload: { content_hash: randomBytes(32).toString("hex"), title: "bench" } });
    done++;
  }
}
await Promise.all(Array.from({ length: 32 }, () => worker(performance.now() + 1000)));
done = 0;
const s = performance.now();
await Promise.all(Array.from({ length: 32 }, () => worker(s + 5000)));
console.log("in-process creates/s:", (done / ((performance.now() - s) / 1000)).toFixed(0));
