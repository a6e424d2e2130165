import type client from "prom-client";
export const metrics: {
  register: client.Registry;
  httpRequests: client.Counter<"method" | "route" | "status">;
  httpDuration: client.Histogram<"method" | "route" | "status">;
  problems: client.Counter<"code">;
  sequencerBatch: client.Histogram<string>;
  sequencerAppend: client.Histogram<"outcome">;
  witnessSubmissions: client.Counter<"witness" | "outcome">;
  witnessAlerts: client.Counter<"witness" | "kind">;
};
export { default as client } from "prom-client";
