/**
 * OAuth2 apps: create (the client secret is shown once), secrets (add a second one to rotate,
 * delete the old one), revoke and reinstate, delete. Each action is a call of the
 * `/_emulator/oauth_apps` API, with the session.
 */
import type { MAX_CLIENT_SECRETS, OAuthApp } from '@oaakit/core';
import { api } from '../api.js';
import { SCOPES } from '../api-values.js';
import {
  act,
  button,
  checkboxGroup,
  confirmed,
  field,
  h,
  onSubmit,
  replace,
  table,
  when,
  type Run,
} from '../dom.js';

/** Most secrets an app holds (core's MAX_CLIENT_SECRETS: the compiler holds the two equal). */
const MAX_SECRETS: typeof MAX_CLIENT_SECRETS = 2;
const BASE = '/_emulator/oauth_apps';

function appPath(app: OAuthApp, rest = ''): string {
  return `${BASE}/${encodeURIComponent(app.client_id)}${rest}`;
}

/** Shows a new client secret once in `shown`, with the client id of a new app. */
function showSecret(shown: HTMLElement, text: string, secret: string, clientId?: string): void {
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

function secretTable(app: OAuthApp, run: Run): HTMLTableElement {
  const rows = app.secrets.map((s, i) =>
    h(
      'tr',
      {},
      h('td', {}, h('code', {}, `${s.prefix}…`)),
      h('td', {}, when(s.created_at)),
      h('td', {}, s.last_used_at ? when(s.last_used_at) : 'never'),
      h(
        'td',
        {},
        button(
          'Delete',
          confirmed(`Delete the secret ${s.prefix}…? Clients using it stop authenticating.`, () => {
            void run(
              () => api('DELETE', appPath(app, `/secrets/${encodeURIComponent(s.secret_id)}`)),
              'Secret deleted',
            );
          }),
          {
            class: 'danger',
            // Every secret starts alike: the label tells them apart by position (oldest first).
            'aria-label': `Delete secret ${i + 1} (${s.prefix}…) of ${app.client_name}`,
          },
        ),
      ),
    ),
  );
  return table(['Secret starts with', 'Created', 'Last used', ''], rows, { class: 'secrets' });
}

function appFacts(app: OAuthApp): HTMLElement {
  return h(
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
  );
}

/** New secret (shown once in `shown`), revoke or reinstate, delete. */
function appActions(app: OAuthApp, run: Run, shown: HTMLElement): HTMLElement {
  const full = app.secrets.length >= MAX_SECRETS;
  const revoked = app.state === 'REVOKED';
  const newSecret = (): void => {
    void run(async () => {
      const { value: s } = await api<{ value: { secret_id: string; client_secret: string } }>(
        'POST',
        appPath(app, '/secrets'),
      );
      showSecret(shown, `New secret for ${app.client_name}.`, s.client_secret);
    }, 'Secret created');
  };
  const revokeOrReinstate = (): void => {
    void run(
      () => api('POST', appPath(app, revoked ? ':reinstate' : ':revoke')),
      `${app.client_name} ${revoked ? 'reinstated' : 'revoked'}`,
    );
  };
  return h(
    'div',
    { class: 'actions' },
    button('New secret', newSecret, {
      disabled: full,
      'aria-label': `New secret for ${app.client_name}`,
      title: full ? `An app holds at most ${MAX_SECRETS} secrets: delete one first` : null,
    }),
    button(
      revoked ? 'Reinstate' : 'Revoke',
      revoked
        ? revokeOrReinstate
        : confirmed(
            `Revoke ${app.client_name}? Every token it holds stops working at once.`,
            revokeOrReinstate,
          ),
      {
        class: revoked ? null : 'danger',
        'aria-label': `${revoked ? 'Reinstate' : 'Revoke'} ${app.client_name}`,
      },
    ),
    button(
      'Delete app',
      confirmed(`Delete ${app.client_name} with its secrets and tokens?`, () => {
        void run(() => api('DELETE', appPath(app)), `${app.client_name} deleted`);
      }),
      { class: 'danger', 'aria-label': `Delete ${app.client_name}` },
    ),
  );
}

function appCard(app: OAuthApp, run: Run, shown: HTMLElement): HTMLElement {
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
    appFacts(app),
    secretTable(app, run),
    appActions(app, run, shown),
  );
}

/** The registration form; the new app's id and secret are shown once in `shown`. */
function appForm(run: Run, shown: HTMLElement): HTMLFormElement {
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
  const scopes = checkboxGroup('Allowed scopes', 'allowed_scopes', SCOPES, {
    hideLegend: true,
    idPrefix: 'scope-',
  });
  const form = h(
    'form',
    { class: 'stack-form' },
    ...field('Client name', name),
    ...field('Base URL', baseUrl),
    ...field('Redirect URIs', redirects),
    h('span'),
    h(
      'span',
      { id: 'redirects-help', class: 'muted' },
      "One per line; each on the base URL's scheme and domain (or a subdomain).",
    ),
    h('span', { class: 'label' }, 'Allowed scopes'),
    scopes.fieldset,
    h('span'),
    h('label', {}, anyRedirect, ' Allow any redirect URI'),
    h('span'),
    h('div', {}, h('button', { type: 'submit' }, 'Create app')),
  );
  return onSubmit(form, () =>
    run(async () => {
      const body = {
        client_name: name.value,
        base_url: baseUrl.value,
        redirect_uris: redirects.value
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l !== ''),
        allowed_scopes: scopes.checked(),
        allow_any_redirect_uri: anyRedirect.checked,
      };
      const { value } = await api<{ value: OAuthApp & { client_secret: string } }>('POST', BASE, body);
      showSecret(shown, `App "${value.client_name}" created.`, value.client_secret, value.client_id);
      form.reset();
    }),
  );
}

/** Renders the OAuth2 apps page. */
export async function renderOAuthApps(main: HTMLElement): Promise<void> {
  const shown = h('div', { class: 'shown-once', 'aria-live': 'polite' });
  const status = h('div');
  const list = h('div');
  const run = act(status, refresh);
  async function refresh(): Promise<void> {
    const apps = (await api<{ values: OAuthApp[] }>('GET', BASE)).values;
    replace(
      list,
      ...(apps.length === 0
        ? [h('p', { class: 'muted' }, 'No OAuth2 apps yet.')]
        : apps.map((app) => appCard(app, run, shown))),
    );
  }
  main.append(
    h('section', { class: 'card' }, h('h2', {}, 'Register an app'), appForm(run, shown), status, shown),
    list,
  );
  await refresh();
}
