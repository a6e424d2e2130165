// @ts-check
// The address a request comes from, decided once, by the gate, from the connection itself.
//
// Without a reverse proxy (HALLMARK_TRUSTED_PROXIES=0, the default) it is the socket's peer:
// any X-Forwarded-For a client sends is its own invention and is ignored. Behind N proxies that
// each append the address they saw (nginx `$proxy_add_x_forwarded_for`, most load balancers),
// it is the N-th address from the right of X-Forwarded-For followed by the socket's peer; the
// entries further left are the client's to forge.

/**
 * An address as the throttles count it: without the port some proxies append
 * (`203.0.113.7:51234`, `[2001:db8::1]:443`) or brackets (`[2001:db8::1]`), since a client
 * chooses its port; an IPv4-mapped IPv6 address as IPv4. Bounded to 64 characters.
 * @param {string} address
 */
const unmapped = (address) =>
  address
    .replace(/^\[([^\]]*)\](?::\d+)?$/, "$1")
    .replace(/^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/, "$1")
    .replace(/^::ffff:/i, "")
    .slice(0, 64);

/**
 * The client address of a request with X-Forwarded-For `forwardedFor` from the socket peer
 * `socketAddress`, behind `trustedProxies` proxies.
 * @param {string | undefined} forwardedFor
 * @param {string | undefined} socketAddress
 * @param {number} trustedProxies
 * @returns {string}
 */
export function resolveClientAddress(forwardedFor, socketAddress, trustedProxies) {
  const peer = unmapped(socketAddress ?? "unknown");
  if (trustedProxies <= 0) return peer;
  const chain = (forwardedFor ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  chain.push(peer);
  // The index is within the chain, which holds the peer at least.
  return unmapped(chain[Math.max(0, chain.length - 1 - trustedProxies)] ?? peer);
}
