// The one file that reads tRPC's internals (a procedure's `_def`, the router's procedure table,
// the procedure call's arguments): the /v1 route handlers, the OpenAPI document and the tests
// that enumerate procedures go through it, so a tRPC upgrade that changes any of this breaks
// here and in trpc-adapter.test.ts, nowhere else.
import type { AnyProcedure, AnyRouter } from "@trpc/server";
import type { ZodType } from "zod";
import type { ProcedureMeta } from "./rest-operation";

export type Procedure = AnyProcedure;
export type ProcedureType = "query" | "mutation" | "subscription";

/** What a procedure declares: its meta (`.meta()`), kind, first input parser and output parser. */
export interface ProcedureFacts {
  meta: ProcedureMeta | undefined;
  type: ProcedureType;
  /** The first `.input()` schema (Hallmark's procedures have at most one). */
  input: ZodType | undefined;
  /** The `.output()` schema. */
  output: ZodType | undefined;
}

type Definition = { meta?: ProcedureMeta; type: ProcedureType; inputs: unknown[]; output?: unknown };
const definitionOf = (procedure: Procedure) => procedure._def as unknown as Definition;

export function procedureFacts(procedure: Procedure): ProcedureFacts {
  const def = definitionOf(procedure);
  return { meta: def.meta, type: def.type, input: def.inputs[0] as ZodType | undefined, output: def.output as ZodType | undefined };
}

/** Every procedure of a router, nested routers flattened, by its dotted path ("account.rename"). */
export function routerProcedures(router: AnyRouter): [path: string, procedure: Procedure][] {
  return Object.entries(router._def.procedures as Record<string, Procedure>);
}

/**
 * Calls a procedure as tRPC's own handlers do: its middlewares (authentication, scopes), input
 * validation and output validation run; an error is thrown as the TRPCError they raise.
 */
export function callProcedure(
  procedure: Procedure,
  call: { ctx: unknown; input: unknown; path: string; signal?: AbortSignal },
): Promise<unknown> {
  return procedure({
    ctx: call.ctx,
    getRawInput: async () => call.input,
    path: call.path,
    // Read alone: a /v1 request's hot path needs nothing else of the definition.
    type: definitionOf(procedure).type,
    signal: call.signal,
    batchIndex: 0,
  });
}
