/**
 * HTML escaping, written once for all of the emulator: the pages it renders (the console's shell,
 * sign-in, consent) and the values it puts into notification e-mails.
 */

/** `text` with HTML's special characters escaped, for text and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The text `escapeHtml` escaped, back: its five entities undone (`&amp;` last). */
export function unescapeHtml(html: string): string {
  return html
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}
