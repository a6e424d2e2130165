// A REST file's declaration of where it runs (e2e/placement.mjs), as scripts/test.mjs reads it:
// the words it knows, what it refuses, and that every REST file in the tree has one that parses.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parsePlacement } from "../e2e/placement.mjs";

describe("a test file's placement", () => {
  it("reads the databases, the lane and the witnessing mark from the leading comments", () => {
    expect(parsePlacement("// @hallmark-test db=sqlite,postgres lane=main\nimport x from 'y';\n")).toEqual({
      db: ["sqlite", "postgres"],
      lane: "main",
      witnessing: false,
    });
    expect(parsePlacement("// What it tests.\n//\n// @hallmark-test   lane=side-own-logs db=postgres witnessing\n")).toEqual({
      db: ["postgres"],
      lane: "side-own-logs",
      witnessing: true,
    });
    expect(parsePlacement("// @hallmark-test db=postgres,sqlite lane=second-server\n").db).toEqual(["sqlite", "postgres"]);
  });

  it("refuses a file without one, with two, or with a word it does not know, saying why", () => {
    expect(() => parsePlacement("import x from 'y';\n")).toThrow(/no "\/\/ @hallmark-test/);
    // Below the first line of code it is not a declaration.
    expect(() => parsePlacement("import x from 'y';\n// @hallmark-test db=sqlite lane=main\n")).toThrow(/no "\/\/ @hallmark-test/);
    expect(() => parsePlacement("// @hallmark-test db=sqlite lane=main\n// @hallmark-test db=sqlite lane=main\n")).toThrow(/2 /);
    expect(() => parsePlacement("// @hallmark-test lane=main\n")).toThrow(/no db=/);
    expect(() => parsePlacement("// @hallmark-test db=sqlite\n")).toThrow(/no lane=/);
    expect(() => parsePlacement("// @hallmark-test db=mysql lane=main\n")).toThrow(/db=mysql/);
    expect(() => parsePlacement("// @hallmark-test db=sqlite,sqlite lane=main\n")).toThrow(/each once/);
    expect(() => parsePlacement("// @hallmark-test db= lane=main\n")).toThrow(/db=/);
    expect(() => parsePlacement("// @hallmark-test db=sqlite lane=side\n")).toThrow(/lane=side/);
    expect(() => parsePlacement("// @hallmark-test db=sqlite lane=main lane=alone\n")).toThrow(/twice/);
    expect(() => parsePlacement("// @hallmark-test db=sqlite lane=main fast\n")).toThrow(/"fast"/);
  });

  it("is declared by every REST file", () => {
    const files = fs.readdirSync("e2e/api", { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".test.ts"));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(() => parsePlacement(fs.readFileSync(path.join("e2e/api", f), "utf8")), f).not.toThrow();
  });
});
