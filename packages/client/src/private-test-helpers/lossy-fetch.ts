/**
 * A fetch that lets the first matching request reach the server, then loses the answer as a reset
 * connection would: the server has done the work and the client cannot know. The emulator's own
 * faults act before the request is handled, so this is how tests reach "processed, answer lost".
 */
export function losingFirstAnswer(
  match: (request: { method: string; path: string; body: string | undefined }) => boolean,
): typeof fetch {
  let lost = false;
  return async (input, init) => {
    const res = await fetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const body = typeof init?.body === 'string' ? init.body : undefined;
    if (!lost && match({ method: init?.method ?? 'GET', path: new URL(url).pathname, body })) {
      lost = true;
      await res.text();
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      });
    }
    return res;
  };
}
