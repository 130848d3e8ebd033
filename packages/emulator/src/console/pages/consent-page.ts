/** The consent page: names the app and the scopes it asks for; Allow or Cancel. */
import type { OAuthScope } from '@oaakit/core';
import { escapeHtml } from '../../escape-html.js';
import { page } from './html.js';
import { CSRF_FIELD } from '../auth/request-session.js';
import type { AuthorizeRequest } from '../../oauth/authorize-request.js';

/** What each scope lets the app do, in the consent page's words. */
export const SCOPE_DESCRIPTIONS: Record<OAuthScope, string> = {
  profile: 'Read your profile: name and email address',
  'lcm:access-requests:manage':
    'Create and manage access requests: approve, reject, assign approvers, manage watchers',
  'oaa:integrations': 'Read and push custom providers and data sources (OAA integrations)',
};

/** The consent page's HTML; `fields` are the request's fields, sent back with the decision. */
export function consentPage(input: {
  request: AuthorizeRequest;
  fields: Record<string, string>;
  userEmail: string;
  csrfToken: string;
}): string {
  const { request } = input;
  const hidden = Object.entries(input.fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const scopes = request.scopes
    .map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(SCOPE_DESCRIPTIONS[s])}</li>`)
    .join('\n');
  const host = new URL(request.redirectUri).host;
  return page(
    `Authorize ${request.app.client_name}`,
    `<h1>Authorize <span id="app-name">${escapeHtml(request.app.client_name)}</span></h1>
<p>Signed in as <strong>${escapeHtml(input.userEmail)}</strong>.</p>
<p><strong>${escapeHtml(request.app.client_name)}</strong> asks for access to your account:</p>
<ul id="scopes">
${scopes}
</ul>
<p>After your decision you go back to <strong>${escapeHtml(host)}</strong>.</p>
<form method="post" action="/oauth/authorize">
<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(input.csrfToken)}">
${hidden}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="cancel">Cancel</button>
</form>`,
  );
}

/** The page shown when the request cannot be redirected back (unknown client, bad redirect URI). */
export function authorizeErrorPage(error: string, description: string): string {
  return page(
    'Authorization failed',
    `<h1>Authorization failed</h1>
<p role="alert"><code>${escapeHtml(error)}</code>: ${escapeHtml(description)}</p>
<p>The request was not sent back to the application, because its client or redirect URI could not be verified.</p>`,
  );
}
