// A TCP port free on 127.0.0.1 at the moment of asking, for the servers and peers the tests and
// benches start (the operating system picks it; another process could take it before it is used).
import net from "node:net";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}
