/** `bytes` cut at the given offsets (taken modulo its length + 1, repeats dropped), for split-stream tests. */
export function cut(bytes: Buffer, at: number[]): Buffer[] {
  const points = [...new Set(at.map((a) => a % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const p of points) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  out.push(bytes.subarray(from));
  return out;
}
