import { describe, expect, it } from "vitest";
import { sameOriginPath } from "./same-origin-path";

const ORIGIN = "https://hallmark.example";

describe("sameOriginPath", () => {
  it.each([
    "//evil.example/x",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    " //evil.example",
    "https://evil.example/",
    "http:evil.example",
    "http://hallmark.example/",
    "https://hallmark.example:8443/",
    "https://user@evil.example/",
    "https://hallmark.example@evil.example/",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    " javascript:alert(1)",
    "data:text/html,x",
    "blob:https://hallmark.example/x",
    "http://[::1",
    "",
    // Paths the parser turns into "//host…" once it removes dot-segments (a browser reads them as another host).
    "/.//evil.example/phish",
    "/%2e//evil.example/phish",
    "/%2E//evil.example/phish",
    "/./\\evil.example/phish",
    "/.\\/evil.example/phish",
    "/./\t/evil.example",
    "/.\n//evil.example",
    "/a/..//evil.example",
    "/a/%2e%2e//evil.example",
    "/a/.%2e/\\evil.example",
    "./\\/evil.example",
    "..//evil.example",
    "/..//evil.example",
    "/../\\evil.example",
    "https://hallmark.example/.//evil.example",
    "https://hallmark.example//evil.example",
    "https://hallmark.example/%2e/\\evil.example",
    "//hallmark.example//evil.example",
    "\\/evil.example",
    "/\\/evil.example",
  ])("sends %j to the fallback", (next) => {
    expect(sameOriginPath(next, ORIGIN, "/dashboard")).toBe("/dashboard");
  });

  it.each([
    ["/dashboard/protections?visibility=public#top", "/dashboard/protections?visibility=public#top"],
    ["https://hallmark.example/console", "/console"],
    ["HTTPS://HALLMARK.EXAMPLE:443/console", "/console"],
    ["//hallmark.example/console", "/console"],
    ["console", "/console"],
    ["/a/../b", "/b"],
    ["/./dashboard", "/dashboard"],
    ["/%2e/dashboard", "/dashboard"],
    ["/\tdash\nboard", "/dashboard"],
    // Percent-encoded slashes stay encoded: one path segment, never a host.
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
    ["/%5C%5Cevil.example", "/%5C%5Cevil.example"],
    ["/.%2F/evil.example", "/.%2F/evil.example"],
    // A query or fragment holding "//" is not a path.
    ["/dashboard?next=//evil.example#//x", "/dashboard?next=//evil.example#//x"],
    // The browser reads a scheme-relative reference with the page's own scheme as a path.
    ["https:evil.example", "/evil.example"],
  ])("keeps %j on the origin as %j", (next, expected) => {
    expect(sameOriginPath(next, ORIGIN, "/dashboard")).toBe(expected);
  });

  it("answers only paths that resolve, read again by a browser, to this origin", () => {
    const prefixes = ["", "/", "/.", "/%2e", "/a/..", "./", "../", "https://hallmark.example/", "https://hallmark.example/."];
    const middles = ["/", "\\", "\t/", "/\t", "%2F", "%5C", "\n\\"];
    for (const p of prefixes) {
      for (const m of middles) {
        const next = `${p}${m}/evil.example/x`;
        const path = sameOriginPath(next, ORIGIN, "/dashboard");
        expect(new URL(path, ORIGIN).origin, JSON.stringify(next)).toBe(ORIGIN);
        expect(path.startsWith("//") || path.startsWith("/\\"), JSON.stringify(next)).toBe(false);
      }
    }
  });
});
