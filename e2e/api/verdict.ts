// What `npm run verify` concludes of a file, reached in this process: the same PDF reader and the
// same composed verification (lib/verify's verify) that the CLI presents, without a process and
// its start-up each. A test that checks many files runs the CLI itself on some of them, so the
// CLI's own reading of its arguments and its exit codes stay covered.
import fs from "node:fs";
import { parsePolicy, type Trust, verify } from "@/lib/verify";
import { readPdf } from "@/scripts/pdf-reader";

/** "OK", or "FAIL <code>: <reason>" as the CLI's last line would say it. */
export async function verdict(file: string, pinned: { logKey?: string; policy?: string }): Promise<string> {
  const trust: Trust = {
    ...(pinned.logKey ? { logPublicKey: fs.readFileSync(pinned.logKey, "utf8").trim() } : {}),
    ...(pinned.policy ? { policy: parsePolicy(fs.readFileSync(pinned.policy, "utf8")) } : {}),
  };
  const v = file.endsWith(".pdf")
    ? await readPdf(new Uint8Array(fs.readFileSync(file))).then((pdf) =>
        verify({ kind: "certificate", attachments: pdf.attachments, text: pdf.text }, trust),
      )
    : file.endsWith(".tlog-proof")
      ? await verify({ kind: "tlog-proof", text: fs.readFileSync(file, "utf8") }, trust)
      : await verify({ kind: "bundle", bundle: fs.readFileSync(file, "utf8") }, trust);
  return v.failure ? `FAIL ${v.failure.code}: ${v.failure.reason}` : "OK";
}
