/** The console's sign-in page: a plain, accessible HTML form. */
import { escapeHtml } from '../../escape-html.js';
import { page } from './html.js';
import { CSRF_FIELD, SIGN_IN_PATH } from '../auth/request-session.js';

/** What the sign-in page shows. */
export interface LoginPageInput {
  /** The login CSRF token (double-submitted: also in a cookie). */
  csrfToken: string;
  /** Where to go after signing in (a same-origin path). */
  next: string;
  email?: string;
  error?: string;
}

/** The sign-in page's HTML. */
export function loginPage(input: LoginPageInput): string {
  const error =
    input.error === undefined
      ? ''
      : `<p class="error" role="alert" id="sign-in-error">${escapeHtml(input.error)}</p>`;
  const described = input.error === undefined ? '' : ' aria-describedby="sign-in-error"';
  return page(
    'Sign in',
    `<h1>Sign in to the OAA emulator console</h1>
${error}
<form method="post" action="${SIGN_IN_PATH}">
<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(input.csrfToken)}">
<input type="hidden" name="next" value="${escapeHtml(input.next)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${escapeHtml(input.email ?? '')}"${described} autofocus>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024">
<button type="submit">Sign in</button>
</form>`,
  );
}
