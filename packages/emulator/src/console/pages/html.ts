/** Small server-rendered HTML pages (sign-in, consent): one accessible page shell, and sending it. */
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../../escape-html.js';

const STYLE = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
label{display:block;margin-top:1rem}input{display:block;width:100%;padding:.4rem;font-size:1rem}
button{margin-top:1rem;margin-right:.5rem;padding:.5rem 1rem;font-size:1rem}
.error{color:#a00;border:1px solid #a00;padding:.5rem}:focus-visible{outline:3px solid #05a}`;

/** A whole page: `main` holds `body` (already-escaped HTML). */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · OAA emulator</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** Sends `html` with headers that keep the page out of frames and caches. */
export function sendPage(reply: FastifyReply, html: string, status = 200): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'none'",
    )
    .send(html);
}
