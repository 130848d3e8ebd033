/**
 * Signing in to the emulator's console over HTTP, as a browser would: fetch the sign-in page (its
 * login CSRF cookie and hidden field), post the form, keep the session cookie.
 */
import { unescapeHtml } from '../escape-html.js';

/** A signed-in console session. */
export interface ConsoleSignIn {
  /** The `Cookie` header value to send with later requests. */
  cookie: string;
  /** The session's CSRF token (form field `csrf_token`, or header `x-csrf-token`). */
  csrfToken: string;
  /** Where the sign-in redirected to. */
  location: string;
}

/** The `name=value` pairs of a response's `Set-Cookie` headers that set (not delete) a cookie. */
export function cookiesOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of res.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq > 0 && !/max-age=0/i.test(line)) out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}

/** The value of hidden field `name` in an HTML form. */
export function hiddenField(html: string, name: string): string | undefined {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  return match?.[1] === undefined ? undefined : unescapeHtml(match[1]);
}

/**
 * Signs in as `email` and answers the session; throws when the sign-in is refused.
 *
 * @example
 * const { cookie, csrfToken } = await signInToConsole({ url: emu.url, email, password });
 */
export async function signInToConsole(options: {
  url: string;
  email: string;
  password: string;
  next?: string;
}): Promise<ConsoleSignIn> {
  const query =
    options.next === undefined ? '' : `?${new URLSearchParams({ next: options.next }).toString()}`;
  const page = await fetch(`${options.url}/console/login${query}`, { redirect: 'manual' });
  const html = await page.text();
  const loginCookie = Object.entries(cookiesOf(page))
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
  const form = new URLSearchParams({
    csrf_token: hiddenField(html, 'csrf_token') ?? '',
    next: hiddenField(html, 'next') ?? '/console',
    email: options.email,
    password: options.password,
  });
  const res = await fetch(`${options.url}/console/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: loginCookie },
    body: form.toString(),
  });
  await res.arrayBuffer();
  // Over TLS the cookie's name has the __Host- prefix.
  const [name, session] =
    Object.entries(cookiesOf(res)).find(([n]) => n.replace(/^__Host-/, '') === 'oaa_emulator_session') ?? [];
  if (res.status !== 303 || session === undefined)
    throw new Error(`sign-in as ${options.email} refused: ${res.status}`);
  const cookie = `${name}=${session}`;
  // The session's CSRF token is answered to same-origin requests only, as the console's pages make.
  const info = await fetch(`${options.url}/console/session`, {
    headers: { cookie, 'sec-fetch-site': 'same-origin' },
  });
  if (!info.ok) throw new Error(`GET /console/session after sign-in: ${info.status}`);
  const { csrf_token } = (await info.json()) as { csrf_token: string };
  return { cookie, csrfToken: csrf_token, location: res.headers.get('location') ?? '' };
}
