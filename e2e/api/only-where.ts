// A test that applies only in some runs (one database, several instances) says so, and why, where
// it is skipped: scripts/test.mjs prints each skip's reason and, under HALLMARK_TEST_STRICT, holds
// the run's skips to e2e/skips.txt, matching them by file and this reason.
import { it, type TestContext } from "vitest";

/** `it`, for a test that runs where `applies` holds and elsewhere is skipped with `reason`. */
export function itWhere(applies: boolean, reason: string) {
  return (name: string, fn: (ctx: TestContext) => unknown, timeout?: number) =>
    it(
      name,
      async (ctx) => {
        ctx.skip(!applies, reason);
        await fn(ctx);
      },
      timeout,
    );
}
