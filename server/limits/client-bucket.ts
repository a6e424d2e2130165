import ipaddr from "ipaddr.js";

/**
 * What a client address's throttles count against: an IPv4 address alone; an IPv6 address's
 * /64, the smallest prefix one subscriber is given (RFC 6177), so a host cannot multiply its
 * budgets by walking the addresses of its own /64. An IPv4-mapped or NAT64 (64:ff9b::/96)
 * address counts as the IPv4 address it carries; anything that is not an address ("unknown")
 * as itself. A host given a larger prefix (a /56 or a /48) still gets a budget per /64: the
 * per-account and per-target budgets bound what those can spend.
 */
export function throttleBucket(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  // NAT64 (RFC 6052's well-known prefix): every IPv4 client behind a translator shares its /64, so it counts as the IPv4 address it carries.
  if (v6.range() === "rfc6052") {
    const [hi, lo] = [v6.parts[6]!, v6.parts[7]!];
    return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join(".");
  }
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${v6.toString()}/64`).toString()}/64`;
}
