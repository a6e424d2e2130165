import ipaddr from "ipaddr.js";

/**
 * What a client address's throttles count against: an IPv4 address alone; an IPv6 address's
 * /64, the smallest prefix one subscriber is given (RFC 6177), so a host cannot multiply its
 * budgets by walking the addresses of its own /64. An IPv4-mapped IPv6 address counts as its
 * IPv4 address; anything that is not an address ("unknown") as itself.
 */
export function throttleBucket(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}
