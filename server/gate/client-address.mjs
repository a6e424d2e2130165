// The address a request comes from, decided once, by the gate, from the connection itself.
//
// Without a reverse proxy (HALLMARK_TRUSTED_PROXIES=0, the default) it is the socket's peer:
// any X-Forwarded-For a client sends is its own invention and is ignored. Behind N proxies that
// each append the address they saw (nginx `$proxy_add_x_forwarded_for`, most load balancers),
// it is the N-th address from the right of X-Forwarded-For followed by the socket's peer; the
// entries further left are the client's to forge.

const unmapped = (address) => address.replace(/^::ffff:/, "").slice(0, 64);

export function resolveClientAddress(forwardedFor, socketAddress, trustedProxies) {
  const peer = unmapped(socketAddress ?? "unknown");
  if (trustedProxies <= 0) return peer;
  const chain = (forwardedFor ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  chain.push(peer);
  return unmapped(chain[Math.max(0, chain.length - 1 - trustedProxies)]);
}
