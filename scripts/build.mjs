#!/usr/bin/env node
// @ts-check
// Generates both Prisma clients, then builds Next.js.
import { execFileSync } from "node:child_process";

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
execFileSync("node", ["scripts/prisma.mjs", "generate"], { stdio: "inherit", env });
execFileSync("node_modules/.bin/next", ["build"], { stdio: "inherit", env });
