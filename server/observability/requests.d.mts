import type http from "node:http";
export function assignRequestId(sent: unknown): string;
export function noteRequest(id: string | null | undefined, facts: { route?: string; tenant?: string }): void;
export function createRouteNamer(distDir: string): (pathname: string) => string;
export function trackRequest(req: http.IncomingMessage, res: http.ServerResponse, routeOf: (pathname: string) => string): string;
