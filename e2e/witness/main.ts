// npm run test-witness -- --listen 127.0.0.1:7380 --name witness.local/w1 (--log-vkey <vkey> | --log-url <base url>)
//   [--algorithm ed25519|ml-dsa-44] [--seed-file witness.seed] [--state witness-state.json]
// Runs the test witness (C2SP tlog-witness). Prints its verifier key and the policy lines that
// name it; --seed-file keeps the same key across restarts (created if missing). --log-url takes
// the log's key from <base url>/v1/log once, at start: trust on first use, for trying it out; a
// real witness is given the key out of band (--log-vkey).
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { TestWitness, type Algorithm } from "./test-witness";

const { values } = parseArgs({
  options: {
    listen: { type: "string", default: "127.0.0.1:7380" },
    name: { type: "string", default: "witness.local/w1" },
    "log-vkey": { type: "string", multiple: true, default: [] },
    "log-url": { type: "string" },
    algorithm: { type: "string", default: "ed25519" },
    "seed-file": { type: "string" },
    state: { type: "string" },
    "test-control": { type: "boolean", default: false },
  },
});
const [host, port] = values.listen!.includes(":") ? values.listen!.split(":") : ["127.0.0.1", values.listen!];
let seed: Uint8Array | undefined;
if (values["seed-file"]) {
  if (!fs.existsSync(values["seed-file"])) fs.writeFileSync(values["seed-file"], randomBytes(32).toString("hex") + "\n", { mode: 0o600 });
  seed = Buffer.from(fs.readFileSync(values["seed-file"], "utf8").trim(), "hex");
}
if (values.algorithm !== "ed25519" && values.algorithm !== "ml-dsa-44") throw new Error("--algorithm is ed25519 or ml-dsa-44");
const logKeys = [...values["log-vkey"]!];
if (values["log-url"]) {
  // The log may still be starting: ask for a minute before giving up.
  const url = `${values["log-url"].replace(/\/+$/, "")}/v1/log`;
  for (let i = 0; ; i++) {
    try {
      logKeys.push(((await (await fetch(url)).json()) as { verifier_key: string }).verifier_key);
      break;
    } catch (err) {
      if (i >= 60) throw new Error(`${url}: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}
const witness = new TestWitness({
  name: values.name!,
  algorithm: values.algorithm as Algorithm,
  seed,
  logKeys,
  stateFile: values.state,
  testControl: values["test-control"],
});
const url = await witness.listen(Number(port), host);
console.log(JSON.stringify({ url, vkey: witness.vkey }));
console.error(
  `[witness] ${values.name} listening on ${url}, trusting ${logKeys.join(", ") || "no log yet"}; a policy naming it:\nwitness w1 ${witness.vkey} ${url}\nquorum w1`,
);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => void witness.close().then(() => process.exit(0)));
