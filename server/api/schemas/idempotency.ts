/** The request and response headers of an operation that takes an Idempotency-Key (mint, batch). */
export const IDEMPOTENCY_HEADER = {
  name: "Idempotency-Key",
  description: "1 to 255 printable ASCII characters; a retry with the same key and body replays the first answer for 24 hours",
};

export const REPLAYED_HEADER = {
  name: "Idempotent-Replayed",
  description: "true when this answer is the replay of an earlier request with the same Idempotency-Key",
};
