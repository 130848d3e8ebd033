/**
 * The console's script: fills the page's `main` with the page its shell names. Each page is a
 * module with a `render(main)` function.
 */
import { errorBox } from './dom.js';
import { renderApiKeys } from './pages/api-keys.js';
import { renderEvents } from './pages/events.js';
import { renderGraphExplorer } from './pages/graph-explorer.js';
import { renderOAuthApps } from './pages/oauth-apps.js';
import { renderProviders } from './pages/providers.js';
import { renderSubscriptions } from './pages/subscriptions.js';
import { renderTemplates } from './pages/templates.js';

type Render = (main: HTMLElement) => Promise<void>;

const PAGES: Record<string, Render> = {
  providers: renderProviders,
  graph: renderGraphExplorer,
  'api-keys': renderApiKeys,
  'oauth-apps': renderOAuthApps,
  events: renderEvents,
  subscriptions: renderSubscriptions,
  templates: renderTemplates,
};

async function start(): Promise<void> {
  const main = document.getElementById('main');
  if (main === null) return;
  const render = PAGES[main.dataset.page ?? ''];
  main.querySelector('.loading')?.remove();
  if (render === undefined) return;
  try {
    await render(main);
  } catch (err) {
    main.append(errorBox(err));
  }
  main.dataset.ready = 'true';
}

void start();
