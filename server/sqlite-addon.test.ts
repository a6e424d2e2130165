import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sqliteAddonFile, sqliteAddonProblem } from "./sqlite-addon.mjs";

describe("better-sqlite3's addon", () => {
  it("as installed, carries no node::ObjectWrap cleanup hook (it would abort under garbage collection)", () => {
    const file = sqliteAddonFile();
    expect(file).not.toBeNull();
    expect(sqliteAddonProblem(file)).toBeNull();
  });

  it("is refused when it imports RemoveEnvironmentCleanupHook, naming the file and the way out", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-addon-"));
    try {
      const file = path.join(dir, "better_sqlite3.node");
      fs.writeFileSync(
        file,
        Buffer.concat([Buffer.alloc(64), Buffer.from("_ZN4node28RemoveEnvironmentCleanupHookEPN2v87IsolateEPFvPvES3_\0")]),
      );
      const problem = sqliteAddonProblem(file);
      expect(problem).toContain(file);
      expect(problem).toContain("nodejs/node#65446");
      expect(problem).toContain("npm_config_nodedir=");
      fs.writeFileSync(file, Buffer.from("_ZN4node25AddEnvironmentCleanupHookEPN2v87IsolateEPFvPvES3_\0"));
      expect(sqliteAddonProblem(file)).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
