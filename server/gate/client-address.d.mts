export declare function resolveClientAddress(
  forwardedFor: string | undefined,
  socketAddress: string | undefined,
  trustedProxies: number,
): string;
