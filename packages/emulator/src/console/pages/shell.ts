/**
 * The HTML every console page starts from: the navigation (plain links, usable without the script),
 * a `main` landmark the page script fills, and the CSRF token the script sends with each change.
 * No inline script or style, so the Content-Security-Policy allows only the console's own files.
 */

import { escapeHtml } from '../../escape-html.js';
import { CSRF_FIELD } from '../auth/request-session.js';

/** The console's pages: path segment and navigation label. */
export const CONSOLE_PAGES = [
  ['providers', 'Providers and data sources'],
  ['graph', 'Graph explorer'],
  ['api-keys', 'API keys'],
  ['oauth-apps', 'OAuth2 apps'],
  ['events', 'Events'],
  ['subscriptions', 'Event subscriptions'],
  ['templates', 'Notification templates'],
] as const;

export type ConsolePage = (typeof CONSOLE_PAGES)[number][0];

/** Whether `name` is a console page. */
export function isConsolePage(name: string): name is ConsolePage {
  return CONSOLE_PAGES.some(([page]) => page === name);
}

/**
 * What every console answer sends: only the console's own files run, and it is never framed.
 * Inline styles are allowed (no inline script is): a template's preview is an email's HTML in a
 * sandboxed frame, and emails style inline.
 */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** The page `page` for the signed-in `user`, carrying `csrfToken` for the script. */
export function consoleShell(options: { page: ConsolePage; user: string; csrfToken: string }): string {
  const nav = CONSOLE_PAGES.map(
    ([page, label]) =>
      `<li><a href="/console/${page}"${page === options.page ? ' aria-current="page"' : ''}>${escapeHtml(label)}</a></li>`,
  ).join('');
  const title = CONSOLE_PAGES.find(([page]) => page === options.page)?.[1] ?? '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf-token" content="${escapeHtml(options.csrfToken)}">
<title>${escapeHtml(title)} · OAA emulator console</title>
<link rel="stylesheet" href="/console/assets/style.css">
<script type="module" src="/console/assets/app.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<span class="brand">OAA emulator console</span>
<span class="user">${escapeHtml(options.user)}<form method="post" action="/console/logout"><input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(options.csrfToken)}"><button type="submit" class="quiet">Sign out</button></form></span>
</header>
<div class="layout">
<nav aria-label="Console"><ul>${nav}</ul></nav>
<main id="main" tabindex="-1" data-page="${options.page}"><h1>${escapeHtml(title)}</h1><p class="loading">Loading…</p></main>
</div>
</body>
</html>
`;
}
