/**
 * OAuth2 apps: create (the client secret is shown once), secrets (add a second one to rotate,
 * delete the old one), revoke and reinstate, delete. Each action is a call of the
 * `/_emulator/oauth_apps` API, with the session.
 */
import type { MAX_CLIENT_SECRETS, OAuthApp } from '@oaakit/core';
import { api } from '../api.js';
import { SCOPES } from '../api-values.js';
import { announce, errorBox, h, replace, when } from '../dom.js';

/** Most secrets an app holds: core's MAX_CLIENT_SECRETS, which the compiler holds this equal to. */
const MAX_SECRETS: typeof MAX_CLIENT_SECRETS = 2;
const BASE = '/_emulator/oauth_apps';

function appPath(app: OAuthApp, rest = ''): string {
  return `${BASE}/${encodeURIComponent(app.client_id)}${rest}`;
}

/** Renders the OAuth2 apps page. */
export async function renderOAuthApps(main: HTMLElement): Promise<void> {
  const shown = h('div', { class: 'shown-once', 'aria-live': 'polite' });
  const status = h('div');
  const list = h('div');

  function showSecret(text: string, secret: string, clientId?: string): void {
    replace(
      shown,
      h(
        'p',
        {},
        text,
        ' Copy the secret now: it is not shown again.',
        clientId === undefined ? null : h('br'),
        clientId === undefined ? null : 'Client id: ',
        clientId === undefined ? null : h('code', { 'data-testid': 'client-id' }, clientId),
        h('br'),
        'Client secret: ',
        h('code', { class: 'secret', 'data-testid': 'client-secret' }, secret),
      ),
    );
  }

  async function act(what: () => Promise<unknown>, done: string): Promise<void> {
    try {
      await what();
      replace(status);
      announce(done);
      await refresh();
    } catch (err) {
      replace(status, errorBox(err));
    }
  }

  function secretRows(app: OAuthApp): HTMLElement {
    return h(
      'table',
      { class: 'secrets' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Secret starts with', 'Created', 'Last used', ''].map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h(
        'tbody',
        {},
        ...app.secrets.map((s, i) =>
          h(
            'tr',
            {},
            h('td', {}, h('code', {}, `${s.prefix}…`)),
            h('td', {}, when(s.created_at)),
            h('td', {}, s.last_used_at ? when(s.last_used_at) : 'never'),
            h(
              'td',
              {},
              h(
                'button',
                {
                  type: 'button',
                  class: 'danger',
                  // Every secret starts alike: the label tells them apart by position (oldest first).
                  'aria-label': `Delete secret ${i + 1} (${s.prefix}…) of ${app.client_name}`,
                  onclick: () => {
                    if (!confirm(`Delete the secret ${s.prefix}…? Clients using it stop authenticating.`))
                      return;
                    void act(
                      () => api('DELETE', appPath(app, `/secrets/${encodeURIComponent(s.secret_id)}`)),
                      'Secret deleted',
                    );
                  },
                },
                'Delete',
              ),
            ),
          ),
        ),
      ),
    );
  }

  function appCard(app: OAuthApp): HTMLElement {
    const full = app.secrets.length >= MAX_SECRETS;
    const revoked = app.state === 'REVOKED';
    return h(
      'section',
      { class: 'card', 'aria-labelledby': `app-${app.client_id}` },
      h(
        'h2',
        { id: `app-${app.client_id}` },
        app.client_name,
        h('span', { class: `status status-${revoked ? 'failed' : 'success'}` }, app.state),
      ),
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Client id'),
        h('dd', {}, h('code', {}, app.client_id)),
        h('dt', {}, 'Base URL'),
        h('dd', {}, app.base_url),
        h('dt', {}, 'Redirect URIs'),
        h('dd', {}, app.allow_any_redirect_uri ? 'any (allowed)' : app.redirect_uris.join(', ')),
        h('dt', {}, 'Allowed scopes'),
        h('dd', {}, app.allowed_scopes.join(', ')),
      ),
      secretRows(app),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          {
            type: 'button',
            disabled: full,
            'aria-label': `New secret for ${app.client_name}`,
            title: full ? `An app holds at most ${MAX_SECRETS} secrets: delete one first` : null,
            onclick: () =>
              void act(async () => {
                const { value: s } = await api<{ value: { secret_id: string; client_secret: string } }>(
                  'POST',
                  appPath(app, '/secrets'),
                );
                showSecret(`New secret for ${app.client_name}.`, s.client_secret);
              }, 'Secret created'),
          },
          'New secret',
        ),
        h(
          'button',
          {
            type: 'button',
            class: revoked ? null : 'danger',
            'aria-label': `${revoked ? 'Reinstate' : 'Revoke'} ${app.client_name}`,
            onclick: () => {
              if (
                !revoked &&
                !confirm(`Revoke ${app.client_name}? Every token it holds stops working at once.`)
              )
                return;
              void act(
                () => api('POST', appPath(app, revoked ? ':reinstate' : ':revoke')),
                `${app.client_name} ${revoked ? 'reinstated' : 'revoked'}`,
              );
            },
          },
          revoked ? 'Reinstate' : 'Revoke',
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'danger',
            'aria-label': `Delete ${app.client_name}`,
            onclick: () => {
              if (!confirm(`Delete ${app.client_name} with its secrets and tokens?`)) return;
              void act(() => api('DELETE', appPath(app)), `${app.client_name} deleted`);
            },
          },
          'Delete app',
        ),
      ),
    );
  }

  async function refresh(): Promise<void> {
    const apps = (await api<{ values: OAuthApp[] }>('GET', BASE)).values;
    replace(
      list,
      ...(apps.length === 0 ? [h('p', { class: 'muted' }, 'No OAuth2 apps yet.')] : apps.map(appCard)),
    );
  }

  const name = h('input', { id: 'app-name', name: 'client_name', required: true, autocomplete: 'off' });
  const baseUrl = h('input', {
    id: 'app-base',
    name: 'base_url',
    type: 'url',
    required: true,
    placeholder: 'https://app.example.com',
  });
  const redirects = h('textarea', {
    id: 'app-redirects',
    name: 'redirect_uris',
    rows: 2,
    required: true,
    'aria-describedby': 'redirects-help',
    placeholder: 'https://app.example.com/callback',
  });
  const anyRedirect = h('input', { id: 'app-any', name: 'allow_any_redirect_uri', type: 'checkbox' });
  const scopes = SCOPES.map((s) =>
    h('input', { type: 'checkbox', name: 'allowed_scopes', value: s, id: `scope-${s}` }),
  );
  const form = h(
    'form',
    { class: 'stack-form' },
    h('label', { for: 'app-name' }, 'Client name'),
    name,
    h('label', { for: 'app-base' }, 'Base URL'),
    baseUrl,
    h('label', { for: 'app-redirects' }, 'Redirect URIs'),
    redirects,
    h('span'),
    h(
      'span',
      { id: 'redirects-help', class: 'muted' },
      "One per line; each on the base URL's scheme and domain (or a subdomain).",
    ),
    h('span', { class: 'label' }, 'Allowed scopes'),
    h(
      'fieldset',
      { class: 'checks' },
      h('legend', { class: 'sr-only' }, 'Allowed scopes'),
      ...scopes.map((box) => h('label', {}, box, ` ${box.value}`)),
    ),
    h('span'),
    h('label', {}, anyRedirect, ' Allow any redirect URI'),
    h('span'),
    h('div', {}, h('button', { type: 'submit' }, 'Create app')),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void (async () => {
      try {
        const body = {
          client_name: name.value,
          base_url: baseUrl.value,
          redirect_uris: redirects.value
            .split('\n')
            .map((l) => l.trim())
            .filter((l) => l !== ''),
          allowed_scopes: scopes.filter((b) => b.checked).map((b) => b.value),
          allow_any_redirect_uri: anyRedirect.checked,
        };
        const created = await api<{ value: OAuthApp & { client_secret: string } }>('POST', BASE, body);
        showSecret(
          `App "${created.value.client_name}" created.`,
          created.value.client_secret,
          created.value.client_id,
        );
        replace(status);
        form.reset();
        await refresh();
      } catch (err) {
        replace(status, errorBox(err));
      }
    })();
  });

  main.append(h('section', { class: 'card' }, h('h2', {}, 'Register an app'), form, status, shown), list);
  await refresh();
}
