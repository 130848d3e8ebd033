/**
 * Who may open the console's pages and call its JSON routes: a signed-in console user. The static
 * bundle (code and styles, no data) is public so the sign-in page can load it.
 */
import { PUBLIC, type RouteAccess } from '../auth/route-access.js';

/** Console pages and the console's JSON routes. */
export const CONSOLE_SESSION: RouteAccess = PUBLIC;
/** The bundled script and stylesheet. */
export const CONSOLE_ASSETS: RouteAccess = PUBLIC;
