/**
 * The replay page's own stylesheet, after the overlay's (OVERLAY_STYLE, whose cards, meters, pips and dice
 * it reuses with the same theme variables). A solid page rather than a transparent overlay; three columns at
 * 1280×720 (timeline, fight state, selected event), two below 1100px, one on a phone.
 */
export const REPLAY_STYLE = `
html { font-size: 15px; }
html, body { overflow: auto; background: #0b0e15; }
body.replay { display: flex; flex-direction: column; height: 100vh; }
.replay a { color: var(--accent); }
.replay button, .replay input, .replay select { font: inherit; color: inherit; }
.replay button { background: var(--chip); border: 1px solid var(--line); border-radius: 0.4rem; padding: 0.3rem 0.65rem; cursor: pointer; font-weight: 700; }
.replay button:hover:not(:disabled) { border-color: var(--accent); }
.replay button:disabled { opacity: 0.45; cursor: default; }
.replay a.button { display: inline-block; background: var(--chip); border: 1px solid var(--line); border-radius: 0.4rem; padding: 0.3rem 0.65rem; font-weight: 700; color: inherit; text-decoration: none; }
.replay a.button:hover { border-color: var(--accent); }
.replay :focus-visible { outline: 0.15rem solid var(--accent); outline-offset: 0.1rem; }
.replay input[type="text"], .replay input[type="number"] { background: rgba(0, 0, 0, 0.35); border: 1px solid var(--line); border-radius: 0.35rem; padding: 0.25rem 0.45rem; min-width: 0; }

.top { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem 0.9rem; padding: 0.5rem 0.8rem; margin: 0.5rem 0.5rem 0; }
.top h1 { margin: 0; font-size: 1.05rem; letter-spacing: 0.04em; text-transform: uppercase; color: var(--muted); }
.top .source { font-weight: 700; overflow-wrap: anywhere; }
.top .open { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; margin-left: auto; }
.top .open label.file { position: relative; overflow: hidden; }
.top .open label.file input { position: absolute; inset: 0; opacity: 0; cursor: pointer; }
.verdict { margin: 0.5rem 0.5rem 0; padding: 0.55rem 0.85rem; display: flex; flex-wrap: wrap; gap: 0.3rem 1rem; align-items: baseline; }
.verdict .v { font-weight: 900; font-size: 1.1rem; }
.verdict[data-verdict="verified"] .v { color: var(--ok); }
.verdict[data-verdict="so-far"] .v { color: var(--accent); }
.verdict[data-verdict="broken"] .v, .verdict[data-verdict="refused"] .v { color: var(--crit); }
.verdict .seed { color: var(--muted); font-weight: 700; }
.verdict .seed[data-seed="not-revealed"] { color: var(--accent); }
.verdict .break { flex-basis: 100%; font-weight: 700; }
.verdict .break button { margin-left: 0.4rem; }

.controls { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; margin: 0.5rem 0.5rem 0; padding: 0.45rem 0.7rem; }
.controls .at { font-weight: 800; min-width: 7.5rem; text-align: center; }
.controls input[type="range"] { flex: 1 1 8rem; min-width: 8rem; accent-color: var(--accent); }
.controls .expect { display: flex; flex-wrap: wrap; align-items: center; gap: 0.35rem; font-size: 0.85rem; color: var(--muted); }
.controls .expect input[type="text"] { width: 13rem; }
.controls .expect input[type="number"] { width: 5rem; }

.layout { display: grid; gap: 0.5rem; padding: 0.5rem; grid-template-columns: 19rem minmax(0, 1fr) 24rem; grid-template-areas: "timeline state detail"; flex: 1 1 auto; min-height: 20rem; box-sizing: border-box; }
.timeline { grid-area: timeline; overflow: auto; margin: 0; padding: 0.3rem; list-style: none; }
.statepane { grid-area: state; overflow: auto; padding: 0.6rem; }
.detail { grid-area: detail; overflow: auto; padding: 0.6rem 0.8rem; }
@media (max-width: 1100px) {
  .layout { grid-template-columns: 17rem minmax(0, 1fr); grid-template-areas: "timeline state" "timeline detail"; grid-template-rows: minmax(0, 1.2fr) minmax(0, 1fr); }
}
@media (max-width: 720px) {
  html { font-size: 14px; }
  body.replay { display: block; height: auto; }
  .layout { display: flex; flex-direction: column; min-height: 0; }
  .statepane .card { width: 100%; }
  .timeline { max-height: 45vh; order: 3; }
  .statepane { order: 1; }
  .detail { order: 2; }
  .top .open { margin-left: 0; }
  .controls .expect input[type="text"] { width: 100%; }
}

.ev { display: grid; grid-template-columns: 2.6rem minmax(0, 1fr) auto; gap: 0 0.4rem; align-items: baseline; padding: 0.22rem 0.4rem; border-radius: 0.35rem; cursor: pointer; border-left: 0.22rem solid transparent; }
.ev:hover { background: var(--chip); }
.ev.selected { background: var(--chip); border-left-color: var(--accent); }
.ev .seq { font-weight: 800; color: var(--muted); text-align: right; }
.ev .type { font-weight: 700; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.ev .meta { grid-column: 2 / 4; font-size: 0.78rem; color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.ev .badge { font-size: 0.75rem; font-weight: 800; }
.ev[data-verdict="verified"] .badge { color: var(--ok); }
.ev[data-verdict="committed"] .badge { color: var(--accent); }
.ev[data-verdict="diverges"] { border-left-color: var(--crit); background: rgba(240, 96, 93, 0.16); }
.ev[data-verdict="diverges"] .badge, .ev[data-verdict="after-break"] .badge { color: var(--crit); }
.ev[data-verdict="after-break"] .type { text-decoration: line-through; text-decoration-color: var(--crit); }
.ev.undone .type { font-style: italic; opacity: 0.75; }
.ev-end { padding: 0.4rem; color: var(--crit); font-weight: 800; font-size: 0.85rem; }

.statepane .overlay { position: static; display: flex; flex-direction: column; align-items: stretch; gap: 0.6rem; }
.statepane .cards { display: flex; flex-wrap: wrap; gap: 0.6rem; }
.statepane .card { width: 16.5rem; }
.statepane .exchange { max-width: none; }
.statepane .panel { box-shadow: none; }
.extras { order: 2; display: flex; flex-direction: column; gap: 0.6rem; }
/* Stepping is not a live stream: a state appears at once, with no dice rolling in or cards shaking. */
.replay .fresh .die, .replay .fresh .result, .replay .fresh .fx, .replay .card.hurt { animation: none; }
.replay .meter .fill { transition: none; }
.extras:empty { display: none; }
.bands { display: flex; flex-wrap: wrap; gap: 0.25rem; margin-top: 0.4rem; }
.bands:empty { display: none; }
.chip.band { border-style: dashed; }
.gauge { display: flex; align-items: center; gap: 0.5rem; padding: 0.45rem 0.75rem; align-self: flex-start; }
.gauge .k { color: var(--muted); font-weight: 800; font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.05em; }
.gauge .v { font-weight: 900; }
.gauge-track { display: inline-flex; gap: 0.15rem; }
.gp { display: inline-block; width: 0.8rem; height: 0.8rem; border-radius: 0.15rem; border: 0.12rem solid var(--accent); box-sizing: border-box; }
.gp.on { background: var(--accent); }
.gp.mark { margin-right: 0.3rem; }
svg.map { width: 100%; max-height: 19rem; background: rgba(255, 255, 255, 0.03); border: 1px solid var(--line); border-radius: 0.6rem; }
svg.map .cell { fill: none; stroke: var(--line); stroke-width: 1; }
svg.map .cell.blocked { fill: rgba(255, 255, 255, 0.22); }
svg.map .wall { stroke: var(--accent); stroke-width: 4; stroke-linecap: round; }
svg.map .token .disc { fill: #3b82f6; stroke: var(--ink); stroke-width: 1.5; }
svg.map .token[data-party="foes"] .disc, svg.map .token[data-party="enemies"] .disc, svg.map .token[data-party="enemy"] .disc { fill: #dc2626; }
svg.map .token.active .disc { stroke: var(--accent); stroke-width: 3; }
svg.map .token.out { opacity: 0.45; }
svg.map .token .facing { fill: var(--accent); }
svg.map .token .initials { fill: #fff; font-size: 11px; font-weight: 800; pointer-events: none; }

.detail h2 { margin: 0 0 0.3rem; font-size: 1.15rem; overflow-wrap: anywhere; }
.detail .sub { color: var(--muted); font-size: 0.85rem; overflow-wrap: anywhere; }
.detail .status-line { margin: 0.5rem 0; font-weight: 800; }
.detail .status-line[data-verdict="verified"] { color: var(--ok); }
.detail .status-line[data-verdict="committed"] { color: var(--accent); }
.detail .status-line[data-verdict="diverges"], .detail .status-line[data-verdict="after-break"] { color: var(--crit); }
.detail .chain { font-size: 0.85rem; overflow-wrap: anywhere; }
.detail .chain[data-chain="broken"], .detail .chain[data-chain="after-break"] { color: var(--crit); font-weight: 700; }
.rolls { display: flex; flex-direction: column; gap: 0.45rem; margin: 0.5rem 0; }
.roll { padding: 0.4rem 0.55rem; border: 1px solid var(--line); border-radius: 0.45rem; }
.roll .who { font-weight: 800; }
.roll .what { color: var(--muted); font-size: 0.8rem; }
.roll .dice { margin: 0.3rem 0; }
.roll .check { font-size: 0.85rem; font-weight: 700; }
.roll[data-status="verified"] .check { color: var(--ok); }
.roll[data-status="committed"] .check { color: var(--accent); }
.roll[data-status="mismatch"] .check { color: var(--crit); }
.roll[data-status="manual"] .check, .roll[data-status="unchecked"] .check { color: var(--muted); }
.divergence { margin: 0.5rem 0; padding: 0.5rem 0.6rem; border: 1px solid var(--crit); border-radius: 0.45rem; background: rgba(240, 96, 93, 0.12); }
.divergence b { color: var(--crit); }
.replay pre { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.78rem; max-height: 18rem; overflow: auto; background: rgba(0, 0, 0, 0.3); padding: 0.4rem; border-radius: 0.35rem; }
.replay details { margin-top: 0.5rem; }
.replay summary { cursor: pointer; font-weight: 700; color: var(--muted); }
.checks { border-collapse: collapse; font-size: 0.82rem; margin-top: 0.3rem; }
.checks td { padding: 0.12rem 0.4rem; vertical-align: top; border-top: 1px solid var(--line); }
.checks td.st-ok { color: var(--ok); font-weight: 800; }
.checks td.st-failed { color: var(--crit); font-weight: 800; }
.checks td.st-skipped { color: var(--accent); font-weight: 800; }
.empty { padding: 2rem 1rem; text-align: center; color: var(--muted); }
.empty strong { color: var(--ink); }
body.dragging .drop { display: grid; }
.drop { display: none; position: fixed; inset: 0; place-items: center; background: rgba(11, 14, 21, 0.85); border: 0.3rem dashed var(--accent); font-size: 1.6rem; font-weight: 900; z-index: 10; pointer-events: none; }
.replay .status { position: static; margin: 0.5rem; align-self: auto; }
`;
