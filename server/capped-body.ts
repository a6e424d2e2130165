/**
 * The body of an answer Hallmark asked another server for (a witness, a TSA, a log list), read
 * up to `max` bytes: past that, the rest is cancelled unread and `tooLarge()` is thrown, so a peer
 * cannot make us hold more than we expect of it. A missing body reads as empty.
 */
export async function readCappedBody(res: Response, max: number, tooLarge: () => Error): Promise<Buffer> {
  const reader = res.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
