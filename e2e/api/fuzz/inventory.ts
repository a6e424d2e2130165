// What the fuzz suite aims at, read from the code itself so a new route, page or procedure is
// fuzzed the day it is added: every route file under app/v1 and app/api, every page under app,
// and every tRPC procedure with the fields of its input.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { appRouter } from "@/server/api/root";
import { procedureFacts, routerProcedures } from "@/server/api/trpc-adapter";

export interface RouteTarget {
  kind: "rest" | "page";
  /** e.g. "/v1/attestations/{id}/proof-bundle"; a catch-all segment is one {name}. */
  template: string;
  params: string[];
}

export interface ProcedureTarget {
  path: string;
  type: "query" | "mutation";
  fields: string[];
}

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

function walk(dir: string, file: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, file, out);
    else if (entry.name === file) out.push(full);
  }
  return out;
}

function toTarget(kind: RouteTarget["kind"], file: string): RouteTarget {
  const segments = path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep).filter(Boolean);
  const params: string[] = [];
  const parts = segments
    .filter((s) => !s.startsWith("(")) // route groups are not in the URL
    .map((s) => {
      const m = /^\[{1,2}(?:\.\.\.)?([^\]]+)\]{1,2}$/.exec(s);
      if (!m) return s;
      params.push(m[1]!);
      return `{${m[1]}}`;
    });
  return { kind, template: "/" + parts.join("/"), params };
}

/** Every route handler: /v1's, tRPC's and next-auth's (the bench's routes are served only when benchmarking). */
export function routeTargets(): RouteTarget[] {
  return [...walk(path.join(ROOT, "app/v1"), "route.ts"), ...walk(path.join(ROOT, "app/api"), "route.ts")].map((f) => toTarget("rest", f));
}

/** Every page. */
export function pageTargets(): RouteTarget[] {
  const dirs = fs
    .readdirSync(path.join(ROOT, "app"), { withFileTypes: true })
    .filter((d) => d.isDirectory() && !["api", "v1", "bench"].includes(d.name) && !d.name.startsWith("_"));
  return [path.join(ROOT, "app/page.tsx"), ...dirs.flatMap((d) => walk(path.join(ROOT, "app", d.name), "page.tsx"))].map((f) =>
    toTarget("page", f),
  );
}

/** Every tRPC procedure, with the top-level fields of its input. */
export function procedureTargets(): ProcedureTarget[] {
  return routerProcedures(appRouter).map(([p, proc]) => {
    const { input, type } = procedureFacts(proc);
    const shape = (input as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
    return { path: p, type: type as "query" | "mutation", fields: Object.keys(shape) };
  });
}
