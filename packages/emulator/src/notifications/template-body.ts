/** The HTML of a template's `body_template_base64`, checked: UTF-8 text with at least one tag. */
import { badField } from '../errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const TAG = /<[A-Za-z!/][^>]*>/;

/** Decodes and checks the body; a 400 naming `field` when it is not UTF-8 HTML. */
export function templateHtml(base64: string, field: string): string {
  let html: string;
  try {
    html = utf8.decode(Buffer.from(base64, 'base64'));
  } catch {
    throw badField(field, 'must be base64 of UTF-8 text (HTML); the decoded bytes are not valid UTF-8');
  }
  if (!TAG.test(html))
    throw badField(field, 'must be base64 of an HTML body: the decoded text holds no HTML tag');
  return html;
}
