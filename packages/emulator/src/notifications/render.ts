/**
 * Renders a template: each `{{name}}` (spaces inside the braces allowed) becomes the value of that
 * placeholder; in the HTML body the value is HTML-escaped, in the subject it is inserted as is. A
 * placeholder the usage does not offer stays as written and is reported, so a typo shows in the
 * test mail and in the answer instead of vanishing.
 */
import { escapeHtml, unescapeHtml } from '../escape-html.js';
import type { SampleData } from './sample-data.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** A rendered subject and body. */
export interface RenderedTemplate {
  subject: string;
  html: string;
  /** Placeholders that the usage does not offer, in order of first appearance. */
  unknownPlaceholders: string[];
}

function fill(text: string, data: SampleData, unknown: Set<string>, escape: boolean): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = Object.hasOwn(data, name) ? data[name] : undefined;
    if (value === undefined) {
      unknown.add(name);
      return whole;
    }
    return escape ? escapeHtml(value) : value;
  });
}

/** Renders `subject` and `html` with `data`. */
export function renderTemplate(input: { subject: string; html: string }, data: SampleData): RenderedTemplate {
  const unknown = new Set<string>();
  // A subject is one header line: line breaks in it (from a value or the template) become spaces.
  const subject = fill(input.subject, data, unknown, false).replace(/[\r\n]+/g, ' ');
  const html = fill(input.html, data, unknown, true);
  return { subject, html, unknownPlaceholders: [...unknown] };
}

/** A plain-text alternative of an HTML body: tags dropped, the entities `escapeHtml` writes undone. */
export function htmlToText(html: string): string {
  const text = html.replace(/<(br|\/p|\/div|\/h[1-6]|\/li|\/tr)\b[^>]*>/gi, '\n').replace(/<[^>]*>/g, '');
  return unescapeHtml(text)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
