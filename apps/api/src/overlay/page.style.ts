/** The overlay's stylesheet: rem-sized (the page sets the root size from `scale`), transparent around the panels. */
export const OVERLAY_STYLE = `
:root { color-scheme: normal; }
/* Dark theme: the bright --ok/--low/--crit read as text on the dark panel; under the meter's white
 * label and value they would not (#43d17a 2.0:1, #f5b83d 1.8:1, #f0605d 3.2:1 against #fff), and a
 * translucent track depends on the game behind the panel. So the meter has its own opaque track
 * (#343a46, 11.4:1) and fills (--fill-*: 5.0:1 and more, as in the light theme). */
.theme-dark {
  --panel: rgba(13, 16, 25, 0.86); --ink: #f5f7fb; --muted: #aeb7c8; --line: rgba(255, 255, 255, 0.14);
  --accent: #ffc83d; --ok: #43d17a; --low: #f5b83d; --crit: #f0605d; --track: #343a46;
  --fill-ok: #15803d; --fill-low: #b45309; --fill-crit: #d42a2a;
  --die: #f5f7fb; --die-ink: #10131c; --chip: rgba(255, 255, 255, 0.12); --shadow: 0 0.2rem 0.9rem rgba(0, 0, 0, 0.45);
}
/* Light theme: the meter's white label and value (.meter .lbl, .val) sit on the track or on the fill, so
 * both are opaque and dark enough for WCAG AA (4.5:1) against #fff, whatever is behind the panel:
 * track #4b5563 7.56:1, ok #15803d 5.02:1, low #b45309 5.02:1, crit #d42a2a 5.04:1 (before: a 45%
 * track over the white panel, about 2.9:1; #16a34a 3.30:1; #d08700 2.94:1). The same colours as text on
 * the white panel (results, pips) gain as much. */
.theme-light {
  --panel: rgba(255, 255, 255, 0.92); --ink: #141a26; --muted: #4f5a6d; --line: rgba(0, 0, 0, 0.12);
  --accent: #c2620a; --ok: #15803d; --low: #b45309; --crit: #d42a2a; --track: #4b5563;
  --fill-ok: var(--ok); --fill-low: var(--low); --fill-crit: var(--crit);
  --die: #1d2433; --die-ink: #ffffff; --chip: rgba(0, 0, 0, 0.07); --shadow: 0 0.2rem 0.9rem rgba(0, 0, 0, 0.2);
}
html, body { margin: 0; padding: 0; background: transparent; overflow: hidden; }
body {
  color: var(--ink); font-family: "Inter", "Segoe UI", "Noto Sans", "DejaVu Sans", "Liberation Sans", system-ui, sans-serif;
  font-variant-numeric: tabular-nums; line-height: 1.25; -webkit-font-smoothing: antialiased;
}
[hidden] { display: none !important; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 0.6rem; box-shadow: var(--shadow); }
.overlay { position: fixed; display: flex; gap: 0.6rem; }
.layout-bar .overlay { left: 1.5rem; right: 1.5rem; bottom: 1.5rem; flex-direction: column; align-items: flex-start; }
.layout-bar .cards { display: flex; flex-wrap: wrap; gap: 0.6rem; }
.layout-bar .card { width: 16.5rem; }
.layout-bar .cards { order: 3; }
.layout-bar .exchange { order: 2; }
.layout-sidebar .overlay { top: 1.5rem; left: 1.5rem; bottom: 1.5rem; width: 21rem; flex-direction: column; }
.layout-sidebar .cards { display: flex; flex-direction: column; gap: 0.5rem; min-height: 0; overflow: hidden; }
.layout-sidebar .exchange { order: 3; margin-top: auto; }

.head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.4rem 0.9rem; padding: 0.45rem 0.9rem; font-size: 1rem; }
.head .sys { color: var(--muted); font-size: 0.85rem; text-transform: uppercase; letter-spacing: 0.06em; }
.head .round { font-weight: 800; color: var(--accent); }
.head .turn { font-weight: 700; }
.head .wait { color: var(--muted); font-style: italic; }
.head span:empty { display: none; }

.card { position: relative; box-sizing: border-box; padding: 0.55rem 0.75rem 0.6rem; transition: opacity 0.4s, filter 0.4s, transform 0.3s; }
.card.active { border-color: var(--accent); box-shadow: 0 0 0 0.15rem var(--accent), var(--shadow); }
.card.acted:not(.active) { opacity: 0.85; }
.card.out { opacity: 0.6; filter: grayscale(0.85); }
.card .top { display: flex; align-items: center; gap: 0.45rem; min-width: 0; }
.card .pos { flex: none; display: inline-grid; place-items: center; width: 1.4rem; height: 1.4rem; border-radius: 50%; font-size: 0.8rem; font-weight: 800; background: var(--chip); color: var(--muted); }
.card.active .pos { background: var(--accent); color: var(--die-ink); }
.card .name { flex: 1; min-width: 0; font-size: 1.2rem; font-weight: 800; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.card .state { flex: none; font-size: 0.72rem; font-weight: 800; text-transform: uppercase; letter-spacing: 0.05em; color: var(--crit); }
.card .turnflag { flex: none; font-size: 0.72rem; font-weight: 800; text-transform: uppercase; letter-spacing: 0.05em; color: var(--accent); }

.meter { position: relative; margin-top: 0.4rem; height: 1.35rem; border-radius: 0.35rem; background: var(--track); overflow: hidden; }
.meter .fill { position: absolute; inset: 0 auto 0 0; width: 0; background: var(--fill-ok); transition: width 0.6s ease-out, background-color 0.6s; }
.meter .fill[data-level="low"] { background: var(--fill-low); }
.meter .fill[data-level="crit"] { background: var(--fill-crit); }
.meter .lbl, .meter .val { position: absolute; top: 0; bottom: 0; display: flex; align-items: center; font-size: 0.8rem; font-weight: 800; color: #fff; text-shadow: 0 0 0.2rem rgba(0, 0, 0, 0.9), 0 0 0.1rem rgba(0, 0, 0, 0.9); }
.meter .lbl { left: 0.45rem; text-transform: uppercase; letter-spacing: 0.05em; }
.meter .val { right: 0.45rem; font-size: 0.9rem; }
.card.hurt { animation: hurt 0.7s ease-out; }
@keyframes hurt { 0% { transform: translateX(0); } 15% { transform: translateX(-0.3rem); } 30% { transform: translateX(0.3rem); } 45% { transform: translateX(-0.2rem); } 60% { transform: translateX(0.15rem); } 100% { transform: none; } }

.res { display: flex; flex-wrap: wrap; gap: 0.3rem 0.7rem; margin-top: 0.45rem; font-size: 0.85rem; }
.res:empty, .conds:empty { display: none; }
.res-item { display: inline-flex; align-items: center; gap: 0.3rem; white-space: nowrap; }
.res-item .k { color: var(--muted); font-weight: 700; font-size: 0.75rem; letter-spacing: 0.04em; }
.res-item .v { font-weight: 800; }
.pips { display: inline-flex; gap: 0.18rem; }
.pip { display: inline-block; box-sizing: border-box; width: 0.78rem; height: 0.78rem; border-radius: 0.2rem; border: 0.12rem solid var(--ink); }
.pip.ready { background: var(--ink); }
.pip.used { background: transparent; opacity: 0.55; }
.pip.wounded { border-color: var(--crit); background: linear-gradient(45deg, transparent 42%, var(--crit) 42%, var(--crit) 58%, transparent 58%), linear-gradient(-45deg, transparent 42%, var(--crit) 42%, var(--crit) 58%, transparent 58%); }
.pip.stamina { border-radius: 50%; border-color: var(--ok); }
.pip.stamina.ready { background: var(--ok); }
.conds { display: flex; flex-wrap: wrap; gap: 0.25rem; margin-top: 0.4rem; }
.chip { font-size: 0.75rem; font-weight: 700; padding: 0.08rem 0.45rem; border-radius: 1rem; background: var(--chip); border: 1px solid var(--line); }

.exchange { padding: 0.55rem 0.85rem 0.65rem; min-width: 18rem; max-width: 40rem; box-sizing: border-box; }
.layout-sidebar .exchange { min-width: 0; max-width: none; }
.layout-sidebar .exchange .sides { flex-direction: column; align-items: flex-start; }
.layout-sidebar .exchange .vs { display: none; }
.exchange .xt { font-size: 0.95rem; font-weight: 700; color: var(--muted); }
.exchange .xt b { color: var(--ink); }
.exchange .sides { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem 0.9rem; margin-top: 0.4rem; }
.exchange .vs { color: var(--muted); font-weight: 800; font-size: 0.8rem; text-transform: uppercase; }
/* A side's dice keep one row: they never shrink for the note, which moves to the next line (and wraps
 * there) when the three do not fit; only more dice than the panel is wide wrap among themselves. */
.side { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.45rem; max-width: 100%; }
.side .who { font-weight: 800; }
.side .note { color: var(--muted); font-size: 0.85rem; font-weight: 700; }
.dice { display: inline-flex; flex: 0 0 auto; flex-wrap: wrap; max-width: 100%; gap: 0.25rem; }
.die { display: inline-grid; place-items: center; width: 1.75rem; height: 1.75rem; border-radius: 0.35rem; background: var(--die); color: var(--die-ink); font-weight: 900; font-size: 1.05rem; font-style: normal; box-shadow: inset 0 -0.12rem 0 rgba(0, 0, 0, 0.25); }
.die.dropped { opacity: 0.35; text-decoration: line-through; }
.fresh .die { animation: roll 0.65s cubic-bezier(0.2, 0.8, 0.3, 1.25) both; }
@keyframes roll { 0% { transform: translateY(-1.2rem) rotate(-260deg) scale(0.3); opacity: 0; } 70% { transform: rotate(12deg) scale(1.12); opacity: 1; } 100% { transform: none; opacity: 1; } }
.exchange .result { margin-top: 0.45rem; font-size: 1.1rem; font-weight: 900; }
.exchange .result.good { color: var(--ok); }
.exchange .result.bad { color: var(--crit); }
.exchange .result.even { color: var(--accent); }
.exchange .fx { margin-top: 0.2rem; font-size: 0.9rem; font-weight: 700; }
.fresh .result, .fresh .fx { animation: pop 0.5s 0.45s ease-out both; }
@keyframes pop { 0% { transform: scale(0.6); opacity: 0; } 100% { transform: none; opacity: 1; } }

.status { align-self: flex-start; padding: 0.3rem 0.7rem; font-size: 0.8rem; font-weight: 700; color: var(--muted); order: 4; }
.status.fatal { color: var(--crit); font-size: 1rem; }
@media (prefers-reduced-motion: reduce) { .fresh .die, .fresh .result, .fresh .fx, .card.hurt { animation: none; } .meter .fill { transition: none; } }
`;

export const ERROR_STYLE = `
html, body { margin: 0; background: transparent; font-family: "Segoe UI", "Noto Sans", "DejaVu Sans", sans-serif; }
.error { margin: 2rem; padding: 1.2rem 1.6rem; max-width: 48rem; border-radius: 0.6rem; background: rgba(20, 10, 12, 0.9); color: #fff; border: 2px solid #f0605d; font-size: 20px; }
h1 { margin: 0 0 0.5rem; font-size: 1.5em; color: #ff8a87; }
p { margin: 0.4rem 0; line-height: 1.4; }
code { font-size: 0.9em; color: #ffc83d; }
.hint { color: #c9cfdb; font-size: 0.85em; }
`;
