// What Hallmark relies on in tRPC's internals, all of it in trpc-adapter.ts: a tRPC upgrade that
// changes a procedure's definition, the router's procedure table or how a procedure is called
// fails here first.
import { initTRPC, TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ProcedureMeta } from "./rest-operation";
import { callProcedure, procedureFacts, routerProcedures } from "./trpc-adapter";

const t = initTRPC.context<{ who: string }>().meta<ProcedureMeta>().create();
const Input = z.object({ n: z.number().int() }).strict();
const Output = z.object({ doubled: z.number(), who: z.string(), path: z.string() });
const seen: string[] = [];
const double = t.procedure
  .meta({ scopes: ["protections:read"] })
  .use(({ ctx, path, next }) => {
    seen.push(`${ctx.who} ${path}`);
    return next();
  })
  .input(Input)
  .output(Output)
  .query(({ input, ctx, path }) => ({ doubled: input.n * 2, who: ctx.who, path }));
const broken = t.procedure.output(Output).mutation(() => ({ doubled: "two" }) as unknown as z.infer<typeof Output>);
const router = t.router({ double, nested: t.router({ broken, deeper: t.router({ double }) }) });

describe("the tRPC adapter", () => {
  it("lists every procedure by its dotted path, nested routers flattened", () => {
    expect(
      routerProcedures(router)
        .map(([path]) => path)
        .sort(),
    ).toEqual(["double", "nested.broken", "nested.deeper.double"]);
    expect(routerProcedures(router).find(([path]) => path === "double")?.[1]).toBe(double);
  });

  it("reads a procedure's meta, kind, input and output schemas as declared", () => {
    expect(procedureFacts(double)).toEqual({ meta: { scopes: ["protections:read"] }, type: "query", input: Input, output: Output });
    expect(procedureFacts(double).input).toBe(Input);
    expect(procedureFacts(double).output).toBe(Output);
    expect(procedureFacts(broken)).toMatchObject({ meta: undefined, type: "mutation", input: undefined, output: Output });
  });

  it("calls a procedure through its middlewares with the context, input and path given", async () => {
    seen.length = 0;
    expect(await callProcedure(double, { ctx: { who: "ada" }, input: { n: 21 }, path: "some.path" })).toEqual({
      doubled: 42,
      who: "ada",
      path: "some.path",
    });
    expect(seen).toEqual(["ada some.path"]);
  });

  it("validates the input (BAD_REQUEST with zod's issues) and the output (INTERNAL_SERVER_ERROR) as tRPC's handlers do", async () => {
    const bad = (await callProcedure(double, { ctx: { who: "ada" }, input: { n: 1.5, extra: true }, path: "double" }).then(
      () => null,
      (e: unknown) => e,
    )) as TRPCError;
    expect(bad).toBeInstanceOf(TRPCError);
    expect(bad.code).toBe("BAD_REQUEST");
    expect(bad.cause).toBeInstanceOf(z.ZodError);
    expect((bad.cause as z.ZodError).issues.map((i) => i.path.join("/")).sort()).toEqual(["", "n"]);
    const wrong = (await callProcedure(broken, { ctx: { who: "ada" }, input: undefined, path: "nested.broken" }).then(
      () => null,
      (e: unknown) => e,
    )) as TRPCError;
    expect(wrong).toBeInstanceOf(TRPCError);
    expect(wrong.code).toBe("INTERNAL_SERVER_ERROR");
  });

  it("reads Hallmark's own router: every procedure a query or a mutation, every /v1 one with its rest operation", async () => {
    const { appRouter } = await import("./root");
    const all = routerProcedures(appRouter);
    expect(all.length).toBeGreaterThan(30);
    for (const [path, p] of all) {
      const facts = procedureFacts(p);
      expect(["query", "mutation"], path).toContain(facts.type);
      if (facts.meta?.rest) expect(facts.meta.rest.path, path).toMatch(/^\/v1\//);
    }
    expect(all.filter(([, p]) => procedureFacts(p).meta?.rest).length).toBeGreaterThan(20);
  });
});
