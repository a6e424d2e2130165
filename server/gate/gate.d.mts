import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";

export declare const ALLOWED_METHODS: readonly string[];
export interface Gate {
  screen(req: IncomingMessage, res: ServerResponse): boolean;
  fail(req: IncomingMessage, res: ServerResponse, err: unknown): void;
  onConnect(req: IncomingMessage, socket: Duplex): void;
  onClientError(err: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void;
}
export declare function createGate(options: { baseUrl: string; trustedProxies?: number; dev?: boolean }): Gate;
