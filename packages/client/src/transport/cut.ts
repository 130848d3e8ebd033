/** A run of consecutive bytes of the stream, kept as the source's own buffers (no copy). */
export interface ByteGroup {
  pieces: Uint8Array[];
  bytes: number;
  /** True for the final group: the stream ended with it. */
  last: boolean;
}

/**
 * Regroups a byte stream into groups of exactly `size` bytes; only the last may be shorter (or
 * empty, when the stream is). A full group is handed out only once a byte beyond it has arrived,
 * so the consumer knows from the first group alone whether the whole stream fits in one.
 */
export async function* cut(
  source: AsyncIterable<Uint8Array>,
  size: number,
): AsyncGenerator<ByteGroup, void, undefined> {
  let pieces: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of source) {
    let rest = chunk;
    while (bytes + rest.byteLength > size) {
      const take = size - bytes;
      if (take > 0) pieces.push(rest.subarray(0, take));
      rest = rest.subarray(take);
      yield { pieces, bytes: size, last: false };
      pieces = [];
      bytes = 0;
    }
    if (rest.byteLength > 0) {
      pieces.push(rest);
      bytes += rest.byteLength;
    }
  }
  yield { pieces, bytes, last: true };
}
