/** Splits a path segment such as `abc:push` into the id and the custom-method action after the colon. */
export function splitAction(segment: string): { id: string; action: string | undefined } {
  const colon = segment.indexOf(':');
  if (colon === -1) return { id: segment, action: undefined };
  return { id: segment.slice(0, colon), action: segment.slice(colon + 1) };
}
