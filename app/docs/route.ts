import { ApiReference } from "@scalar/nextjs-api-reference";
import { scalarBundlePath } from "./scalar.js/bundle";

/**
 * Where Scalar falls short of the axe checks every page passes: colours darkened to WCAG AA
 * contrast on white, and a code block's copy button, whose only name sits in a hidden span
 * until the block is hovered, named at all times.
 */
const ACCESSIBILITY_CSS = `
.light-mode {
  --scalar-color-2: #4b4b4b !important;
  --scalar-color-3: #5c5c5c !important;
  --scalar-sidebar-color-2: #4b4b4b !important;
  --scalar-color-accent: #1d4ed8 !important;
  --scalar-color-green: #116329 !important;
  --scalar-color-blue: #1d4ed8 !important;
  --scalar-color-orange: #9a3412 !important;
  --scalar-color-red: #b91c1c !important;
  --scalar-color-purple: #6d28d9 !important;
  --scalar-color-yellow: #854d0e !important;
}
.light-mode .hljs-number, .light-mode .hljs-literal { color: #9a3412 !important; }
.light-mode .hljs-string { color: #116329 !important; }
.light-mode .hljs-keyword, .light-mode .hljs-built_in { color: #6d28d9 !important; }
.light-mode .hljs-attr, .light-mode .hljs-property { color: #1d4ed8 !important; }
.light-mode .hljs-comment { color: #5c5c5c !important; }
.scalar-code-copy .sr-only .hidden { display: inline !important; }
`;

/**
 * The interactive API reference (Scalar), built from /v1/openapi.json. Its script is served from
 * this origin (no CDN: the page works offline and under the pages' CSP) and carries the request's
 * CSP nonce, which the gate put in the request's content-security-policy header. Scalar's hosted
 * extras (telemetry, its AI agent, MCP generation, its developer toolbar) are off: the page talks
 * to this server only.
 */
export async function GET(req: Request): Promise<Response> {
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(req.headers.get("content-security-policy") ?? "")?.[1];
  const page = ApiReference({
    url: "/v1/openapi.json",
    cdn: scalarBundlePath(),
    nonce,
    pageTitle: "Hallmark API reference",
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never",
    hideDarkModeToggle: true,
    forceDarkModeState: "light",
    documentDownloadType: "json",
    customCss: ACCESSIBILITY_CSS,
    metaData: { title: "Hallmark API reference" },
  })();
  const html = (await page.text()).replace(/^(<!doctype html>\s*)<html>/i, '$1<html lang="en">');
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}
