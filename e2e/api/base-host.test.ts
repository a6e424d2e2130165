// @hallmark-test db=sqlite lane=main
// `npm start` as a newcomer runs it: base URL http://localhost:<port>, no proxy in front. It says
// which address to open, and a page asked for at http://127.0.0.1:<port> (the same server under
// another name, where the forms' requests would be refused as cross-origin) is sent there; the
// API answers on any host.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpRequest } from "../../server/test-support/raw-http";
import { OwnServer, ownSqliteEnv, sleep } from "./own-server";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-base-host-test-"));
let server: OwnServer;
let base: string;

beforeAll(async () => {
  const env = { ...ownSqliteEnv(work, "base-host"), HALLMARK_TRUSTED_PROXIES: "0" };
  server = await OwnServer.start(env, { script: "start", baseUrl: (port) => `http://localhost:${port}` });
  base = `http://localhost:${server.port}`;
  // Migrations first, then Next.js: under load on two cores this has taken most of a minute.
  await server.ready(200_000);
}, 240_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe("npm start on localhost, opened at 127.0.0.1", () => {
  it("prints the address to open once it is listening", async () => {
    const sentence = `open ${base} in a browser`;
    for (let i = 0; i < 100 && !server.output.includes(sentence); i++) await sleep(50);
    expect(server.output).toContain(`Hallmark is ready: ${sentence}.`);
  });

  it("redirects a page asked for on another host to the same path and query at the base URL", async () => {
    for (const method of ["GET", "HEAD"]) {
      const res = await httpRequest(server.url, "/login?next=%2Fdashboard", { method });
      expect({ method, status: res.status, location: res.headers.location }).toEqual({
        method,
        status: 307,
        location: `${base}/login?next=%2Fdashboard`,
      });
    }
    // Whatever the request says its host is, the redirect names the configured one.
    const spoofed = await httpRequest(server.url, "/", { headers: { host: "evil.example", "x-forwarded-host": "evil.example" } });
    expect(spoofed.headers.location).toBe(`${base}/`);
    // On the base URL's own host the page is served.
    const own = await httpRequest(server.url, "/login", { headers: { host: `localhost:${server.port}` } });
    expect(own.status).toBe(200);
    expect(own.text).toContain("Log in");
  });

  it("answers the API and the operator's paths on any host", async () => {
    for (const p of ["/v1/log", "/readyz", "/healthz", "/api/auth/csrf"]) {
      const res = await httpRequest(server.url, p);
      expect({ p, status: res.status }).toEqual({ p, status: 200 });
    }
  });
});
