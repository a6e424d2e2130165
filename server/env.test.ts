// The environment's rules: a bad value fails at start with a message naming it.
import { describe, expect, it } from "vitest";
import { readEnv, serverNodeArgs } from "./env.mjs";

describe("readEnv: time-stamping", () => {
  it("is off by default, and takes a TSA URL only with the certificate its tokens must chain to", () => {
    expect(readEnv({}).tsaUrl).toBeUndefined();
    expect(() => readEnv({ HALLMARK_TSA_URL: "https://tsa.example/" })).toThrow(/HALLMARK_TSA_CERT: required with HALLMARK_TSA_URL/);
    const env = readEnv({ HALLMARK_TSA_URL: "https://tsa.example/", HALLMARK_TSA_CERT: "tsa.pem" });
    expect(env.tsaUrl).toBe("https://tsa.example/");
    expect(env.tsaCertFile).toMatch(/\/tsa\.pem$/);
    expect(env.tsaIntervalSeconds).toBe(60);
  });

  it("refuses a TSA URL that is not http(s), and an interval outside 1 s to a day", () => {
    expect(() => readEnv({ HALLMARK_TSA_URL: "ftp://tsa.example/", HALLMARK_TSA_CERT: "x" })).toThrow(/HALLMARK_TSA_URL/);
    expect(() => readEnv({ HALLMARK_TSA_INTERVAL: "0" })).toThrow(/HALLMARK_TSA_INTERVAL/);
    expect(() => readEnv({ HALLMARK_TSA_INTERVAL: "86401" })).toThrow(/HALLMARK_TSA_INTERVAL/);
  });
});

describe("serverNodeArgs: the server's heap limit", () => {
  it("is 512 MB by default, HALLMARK_HEAP_MB otherwise, and none when NODE_OPTIONS sets one", () => {
    expect(serverNodeArgs({})).toEqual(["--max-old-space-size=512"]);
    expect(serverNodeArgs({ HALLMARK_HEAP_MB: "1024" })).toEqual(["--max-old-space-size=1024"]);
    expect(serverNodeArgs({ NODE_OPTIONS: "--enable-source-maps --max-old-space-size=2048" })).toEqual([]);
    expect(serverNodeArgs({ NODE_OPTIONS: "--max-semi-space-size=16" })).toEqual(["--max-old-space-size=512"]);
  });

  it("refuses a limit too small to serve or not a number", () => {
    expect(() => readEnv({ HALLMARK_HEAP_MB: "64" })).toThrow(/HALLMARK_HEAP_MB/);
    expect(() => readEnv({ HALLMARK_HEAP_MB: "lots" })).toThrow(/HALLMARK_HEAP_MB/);
  });
});

describe("HALLMARK_SQLITE_CACHE_MB: each SQLite connection's page cache", () => {
  it("is 64 MB by default, the value given otherwise, and refuses none or not a number", () => {
    expect(readEnv({}).sqliteCacheMb).toBe(64);
    expect(readEnv({ HALLMARK_SQLITE_CACHE_MB: "8" }).sqliteCacheMb).toBe(8);
    expect(() => readEnv({ HALLMARK_SQLITE_CACHE_MB: "0" })).toThrow(/HALLMARK_SQLITE_CACHE_MB/);
    expect(() => readEnv({ HALLMARK_SQLITE_CACHE_MB: "lots" })).toThrow(/HALLMARK_SQLITE_CACHE_MB/);
  });
});

describe("HALLMARK_SQLITE_MMAP_MB: how much of the SQLite file each connection maps", () => {
  it("is 0 (no map) by default, the value given otherwise, and refuses a negative, past SQLite's ceiling or not a number", () => {
    expect(readEnv({}).sqliteMmapMb).toBe(0);
    expect(readEnv({ HALLMARK_SQLITE_MMAP_MB: "1024" }).sqliteMmapMb).toBe(1024);
    expect(readEnv({ HALLMARK_SQLITE_MMAP_MB: "256" }).sqliteMmapMb).toBe(256);
    expect(() => readEnv({ HALLMARK_SQLITE_MMAP_MB: "-1" })).toThrow(/HALLMARK_SQLITE_MMAP_MB/);
    expect(() => readEnv({ HALLMARK_SQLITE_MMAP_MB: "2048" })).toThrow(/HALLMARK_SQLITE_MMAP_MB/); // past SQLite's ceiling
    expect(() => readEnv({ HALLMARK_SQLITE_MMAP_MB: "lots" })).toThrow(/HALLMARK_SQLITE_MMAP_MB/);
  });
});
