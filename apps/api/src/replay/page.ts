import { escapeHtml, scriptJson } from '../overlay/page';
import { FIGHT_RENDER_SCRIPT } from '../overlay/render.script';
import { OVERLAY_STYLE } from '../overlay/page.style';
import { REPLAY_SCRIPT } from './page.script';
import { REPLAY_STYLE } from './page.style';

/** Where the page reads its log: this service (a fight and a token) or only a file the person opens. */
export interface ReplaySettings {
  fightId?: string;
  token?: string;
}

/**
 * How the page gets the verifier bundle: from this service as a cacheable script (`src`, `/replay/verifier.<hash>.js`,
 * checked against its `integrity`), or inline, for the copy saved to disk (`GET /replay/offline.html`).
 */
export type VerifierTag = { src: string; integrity: string } | { inline: string };

/** The page's title bar: where the log comes from, and the buttons that reload, save or open one. */
function replayHeader(s: ReplaySettings, verifier: VerifierTag): string {
  return `<header class="top panel">
  <h1>Fight replay</h1>
  <span class="source" id="source">${s.fightId ? `Fight ${escapeHtml(s.fightId)}` : 'No log open yet'}</span>
  <div class="open">
    <button type="button" id="reload" hidden>Reload from the service</button>
    <button type="button" id="save" hidden>Save this log</button>
${'src' in verifier ? '<a class="button" id="offline" href="/replay/offline.html" download="fight-replay.html" title="One HTML file that checks logs with no server at all">Save this page for offline use</a>' : ''}
    <label class="file" role="button"><span>Open a log file…</span><input type="file" id="file" accept=".json,.ndjson,application/json,application/x-ndjson"></label>
  </div>
</header>`;
}

/** The controls that step through the fight, and the expected head hash and event count to check against. */
const REPLAY_CONTROLS = `<nav class="controls panel" aria-label="Step through the fight">
  <button type="button" id="first" title="First event (Home)" aria-label="First event">|◀</button>
  <button type="button" id="prev-roll" title="Previous event with dice" aria-label="Previous event with dice">◀ dice</button>
  <button type="button" id="prev" title="Previous event (←)" aria-label="Previous event">◀</button>
  <span class="at" id="at">seq – / –</span>
  <button type="button" id="next" title="Next event (→)" aria-label="Next event">▶</button>
  <button type="button" id="next-roll" title="Next event with dice" aria-label="Next event with dice">dice ▶</button>
  <button type="button" id="last" title="Last event (End)" aria-label="Last event">▶|</button>
  <input type="range" id="scrub" min="0" max="0" value="0" aria-label="Event">
  <span class="expect">
    <label for="expect-head">Expected head hash</label><input type="text" id="expect-head" spellcheck="false" autocomplete="off" placeholder="optional, 64 hex digits">
    <label for="expect-events">events</label><input type="number" id="expect-events" min="1" placeholder="optional">
    <button type="button" id="reverify">Verify again</button>
  </span>
</nav>`;

/** The timeline of events, the fight at the selected event, and that event with the verifier's report. */
const REPLAY_PANES = `<main class="layout">
  <ol class="timeline panel" id="timeline" role="listbox" aria-label="Every event of the fight" tabindex="0"></ol>
  <section class="statepane panel" aria-label="The fight at the selected event">
    <div id="state" class="overlay">
      <header class="head panel"><span class="sys"></span><span class="round"></span><span class="turn"></span><span class="wait"></span></header>
      <section class="exchange panel" hidden></section>
      <div class="extras" id="extras"></div>
      <section class="cards"></section>
    </div>
    <p class="sub" id="state-note"></p>
  </section>
  <section class="detail panel" aria-label="The selected event">
    <div id="detail"><p class="empty"><strong>Drop a fight log anywhere on this page</strong>, or open one with the button above. Arrow keys, Home and End step through it; #seq=N in the address links to an event.</p></div>
    <details><summary>The verifier’s report (the same as POST /audit/verify)</summary>
      <table class="checks"><tbody id="checks"></tbody></table>
      <pre id="report-json"></pre>
    </details>
  </section>
</main>`;

/** The verifier bundle: a cacheable script checked against its integrity, or inline in the offline copy. */
function verifierScript(verifier: VerifierTag, nonce: string): string {
  return 'src' in verifier
    ? `<script nonce="${nonce}" src="${escapeHtml(verifier.src)}" integrity="${escapeHtml(verifier.integrity)}"></script>`
    : `<script nonce="${nonce}">${verifier.inline}</script>`;
}

/**
 * The replay page: the overlay's stylesheet and drawing code and the page script inline, the verifier bundle
 * (~800 KiB) a script of its own that the browser caches, or inline too in the copy saved for offline use, which
 * is then one self-contained document that checks a log with no server at all.
 */
export function replayPage(s: ReplaySettings, verifier: VerifierTag, nonce: string): string {
  const config = s.fightId ? { fightId: s.fightId, token: s.token } : {};
  const title = s.fightId ? `Replay · fight ${s.fightId}` : 'Replay a fight log';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${OVERLAY_STYLE}
${REPLAY_STYLE}</style>
</head>
<body class="replay layout-bar theme-dark">
${replayHeader(s, verifier)}
<section class="verdict panel" id="verdict" aria-live="polite"><span class="v">${s.fightId ? 'Loading…' : 'Open or drop an exported fight log (GET /fights/:id/log, JSON or NDJSON): it is checked here, in this browser, and never sent anywhere.'}</span></section>
${REPLAY_CONTROLS}
<div class="status panel" id="status" role="status" hidden></div>
${REPLAY_PANES}
<div class="drop" aria-hidden="true">Drop the fight log to check it here</div>
<script type="application/json" id="replay-config">${scriptJson(config)}</script>
${verifierScript(verifier, nonce)}
<script nonce="${nonce}">${FIGHT_RENDER_SCRIPT}
${REPLAY_SCRIPT}</script>
</body>
</html>
`;
}
