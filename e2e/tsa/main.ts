// npm run test-tsa -- [--listen 127.0.0.1:7390] [--name "Hallmark Test TSA"] [--test-control]
// Runs the test time-stamping authority (RFC 3161, OpenSSL's `ts` behind its HTTP transport) on
// a fresh root and TSA certificate. Prints one JSON line {url, root_pem}, root_pem the file of the
// root certificate that a log (HALLMARK_TSA_CERT) and a verifier (--tsa-cert) pin.
import path from "node:path";
import { parseArgs } from "node:util";
import { TestTsa } from "./test-tsa";

const { values } = parseArgs({
  options: {
    listen: { type: "string", default: "127.0.0.1:7390" },
    name: { type: "string", default: "Hallmark Test TSA" },
    "test-control": { type: "boolean", default: false },
  },
});
const [host, port] = values.listen!.includes(":") ? values.listen!.split(":") : ["127.0.0.1", values.listen!];
const tsa = new TestTsa({ name: values.name, testControl: values["test-control"] });
const url = await tsa.listen(Number(port), host);
const rootPem = path.join(tsa.dir, "ca.pem");
console.log(JSON.stringify({ url, root_pem: rootPem }));
console.error(`[tsa] ${values.name} listening on ${url}; pin its root: HALLMARK_TSA_URL=${url} HALLMARK_TSA_CERT=${rootPem}`);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => void tsa.close().then(() => process.exit(0)));
