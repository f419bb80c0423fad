import type { FastifyReply as Response } from 'fastify';
import type { ApiError } from '../common/api-error';
import { OVERLAY_SCRIPT } from './page.script';
import { FIGHT_RENDER_SCRIPT } from './render.script';
import { ERROR_STYLE, OVERLAY_STYLE } from './page.style';

export interface OverlaySettings {
  fightId: string;
  token: string;
  layout: 'bar' | 'sidebar';
  theme: 'dark' | 'light';
  scale: number;
}

/** Text for HTML content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON inside a `<script type="application/json">`: nothing in it can close the element or start markup. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Nothing external: OBS may run offline, and the CSP lets in only this response's own nonce. */
export function sendHtml(res: Response, status: number, nonce: string, html: string): void {
  void res
    .status(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'`,
      'cache-control': 'no-store',
      // The token is in the URL: never hand it to another site.
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    })
    .send(html);
}

/**
 * RFC 9110 section 15.5.2: a 401 says how to authenticate, as the API's 401s do (RFC 6750 section 3): with a
 * bearer token (here the page's ?token=), and `invalid_token` when one was sent that is unknown, revoked or expired.
 */
export function challengeOn401(res: Response, e: ApiError): void {
  if (e.statusCode === 401)
    void res.header(
      'WWW-Authenticate',
      e.code === 'UNAUTHENTICATED' ? 'Bearer' : 'Bearer error="invalid_token"',
    );
}

export function overlayPage(s: OverlaySettings, nonce: string): string {
  const config = { fightId: s.fightId, token: s.token };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fight overlay</title>
<style nonce="${nonce}">${OVERLAY_STYLE}
html { font-size: ${Math.round(18 * s.scale * 100) / 100}px; }</style>
</head>
<body class="layout-${s.layout} theme-${s.theme}">
<main id="overlay" class="overlay">
  <header class="head panel"><span class="sys"></span><span class="round"></span><span class="turn"></span><span class="wait"></span></header>
  <section class="exchange panel" hidden></section>
  <section class="cards"></section>
  <div class="status panel" role="status">Connecting…</div>
</main>
<script type="application/json" id="overlay-config">${scriptJson(config)}</script>
<script nonce="${nonce}">${FIGHT_RENDER_SCRIPT}
${OVERLAY_SCRIPT}</script>
</body>
</html>
`;
}

const TITLES: Record<number, string> = {
  400: 'This overlay link is not valid',
  401: 'This token does not work',
  404: 'No such fight for this token',
  429: 'Too many requests',
};

/** A page's own words for an error page: its titles by status, and what is accepted in its URL. */
export interface ErrorTexts {
  titles: Record<number, string>;
  fallback: string;
  accepted: string;
  /** What the person can do, by status, where it is not the usual (ask for a token, fix the link, try again). */
  hints?: Record<number, string>;
}

const OVERLAY_ERRORS: ErrorTexts = {
  titles: TITLES,
  fallback: 'The overlay could not load',
  accepted: 'Accepted: token, layout=bar|sidebar, theme=dark|light, scale=0.5…3.',
};

/** What OBS shows when the link is wrong: readable on the stream preview, so the streamer can fix the URL. */
export function errorPage(e: ApiError, nonce: string, texts: ErrorTexts = OVERLAY_ERRORS): string {
  const title = texts.titles[e.statusCode] ?? texts.fallback;
  const hint =
    texts.hints?.[e.statusCode] ??
    (e.statusCode === 401 || e.statusCode === 404
      ? 'Ask the GM for a spectator token for this fight (POST /fights/:id/tokens with {"role":"spectator"}) and put it in the URL as ?token=…'
      : e.statusCode === 400
        ? texts.accepted
        : 'Try again in a moment.');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style nonce="${nonce}">${ERROR_STYLE}</style></head>
<body><main class="error" data-status="${e.statusCode}" data-code="${escapeHtml(e.code)}">
<h1>${escapeHtml(title)}</h1>
<p class="message">${escapeHtml(e.message)}${e.field ? ` (${escapeHtml(e.field)})` : ''} — <code>${escapeHtml(e.code)}</code></p>
<p class="hint">${escapeHtml(hint)}</p>
</main></body>
</html>
`;
}
