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
    "javascript:alert(1)",
    "data:text/html,x",
    "http://[::1",
    "",
  ])("sends %j to the fallback", (next) => {
    expect(sameOriginPath(next, ORIGIN, "/dashboard")).toBe("/dashboard");
  });

  it.each([
    ["/dashboard/protections?visibility=public#top", "/dashboard/protections?visibility=public#top"],
    ["https://hallmark.example/console", "/console"],
    ["console", "/console"],
    ["/a/../b", "/b"],
    // The browser reads a scheme-relative reference with the page's own scheme as a path.
    ["https:evil.example", "/evil.example"],
  ])("keeps %j on the origin as %j", (next, expected) => {
    expect(sameOriginPath(next, ORIGIN, "/dashboard")).toBe(expected);
  });
});
