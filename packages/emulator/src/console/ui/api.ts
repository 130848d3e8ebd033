/**
 * Calls from the console's pages to the emulator's API: same-origin, with the session cookie the
 * browser keeps and the page's CSRF token on every call (the API admits a console session only
 * with it; see src/console/server/session-access.ts). A lost session sends the reader to sign in.
 */

/** An error answer, with the message of the emulator's error body. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

function messageOf(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { message?: string; error_description?: string };
    return body.message ?? body.error_description ?? `HTTP ${status}`;
  } catch {
    return `HTTP ${status}`;
  }
}

/** Sends a JSON request and answers the parsed JSON body; throws ApiCallError on a non-2xx answer. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-csrf-token': csrfToken() };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  // A lost session: JSON routes answer 401 to changes and send reads to the sign-in page.
  if (res.status === 401 || (res.redirected && new URL(res.url).pathname === '/console/login')) {
    location.assign(`/console/login?next=${encodeURIComponent(location.pathname + location.search)}`);
    throw new ApiCallError(401, 'signed out: sign in again');
  }
  if (!res.ok) throw new ApiCallError(res.status, messageOf(res.status, text));
  return (text === '' ? {} : JSON.parse(text)) as T;
}
