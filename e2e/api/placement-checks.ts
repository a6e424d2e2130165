// What the REST client (helpers.ts api) holds a test file to, by the placement the file declares
// (e2e/placement.mjs): a side lane's file sends no append to the suite's log, whose size the main
// lane's tests count; a retry of 503 not_yet_witnessed is written down for scripts/test.mjs to
// count and print, and fails the test in a file whose subject is witnessing.
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { type Placement, parsePlacement } from "../placement.mjs";

const placements = new Map<string, Placement>();

/** The running test file, relative to the repository, and its declared placement. */
function currentFile(): { file: string; placement: Placement } | undefined {
  const testPath = expect.getState().testPath;
  if (!testPath) return undefined;
  let placement = placements.get(testPath);
  if (!placement) placements.set(testPath, (placement = parsePlacement(fs.readFileSync(testPath, "utf8"))));
  return { file: path.relative(process.cwd(), testPath), placement };
}

// The requests that append to a log: an attestation, a batch, a mint (REST or tRPC).
const APPEND = /^\/(v1\/(attestations(\/batch)?|consumer\/mint)|api\/trpc\/[^?]*\b(consumer\.mint|attestations\.create(Batch)?))(\?|$)/;

/** Throws for an append to the suite's log sent from a side lane's file. */
export function refuseSideLaneAppend(method: string, requestPath: string): void {
  const current = currentFile();
  if (!current?.placement.lane.startsWith("side-") || method !== "POST" || !APPEND.test(requestPath)) return;
  throw new Error(
    `${current.file} runs in a side lane (${current.placement.lane}) and sent ${method} ${requestPath}, an append to the suite's log, ` +
      "whose size the main lane's tests count: append on a server of the file's own, or declare it lane=main or lane=second-server",
  );
}

/**
 * Notes one retry of a GET answered 503 not_yet_witnessed (a line in HALLMARK_TEST_RETRY_LOG, which
 * scripts/test.mjs counts and prints), and throws instead in a file declared `witnessing`: there the
 * retry would hide the subject under test.
 */
export function noteNotYetWitnessedRetry(method: string, requestPath: string): void {
  const current = currentFile();
  const test = expect.getState().currentTestName ?? "(a hook)";
  const log = process.env.HALLMARK_TEST_RETRY_LOG;
  if (log) fs.appendFileSync(log, `${JSON.stringify({ file: current?.file ?? "?", test, method, path: requestPath })}\n`);
  if (current?.placement.witnessing)
    throw new Error(
      `${method} ${requestPath} was answered 503 not_yet_witnessed, which the REST client retries; ` +
        `${current.file} is declared witnessing, so a test there that needs the retry fails`,
    );
}
