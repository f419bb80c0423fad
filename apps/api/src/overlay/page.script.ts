/**
 * The overlay's browser code, inlined into the page (no framework, nothing fetched but this fight's own API).
 *
 * Live updates: the SSE stream is read with fetch rather than EventSource, because the stream names each
 * message after its event type and EventSource only delivers named messages to listeners registered for
 * that exact name: a page written before a system lands could not see that system's events. Reconnects
 * resume with `?after=<last seq>` (what Last-Event-ID does), back off up to 3 s, and stop once the fight has
 * ended (the stream ends after FightEnded; the next one answers 204), and a watchdog drops a
 * stream that has been silent past two keepalives. Events only say *that* something changed; the view is
 * refetched with `minSeq` (bursts coalesced into one request) and every field is read defensively, so any
 * system shows the common parts and its own resources when present. All text goes in through textContent.
 * It runs after FIGHT_RENDER_SCRIPT (render.script.ts), which draws the view.
 */
export const OVERLAY_SCRIPT = String.raw`
(function () {
  'use strict';
  var cfg = JSON.parse(document.getElementById('overlay-config').textContent);
  var api = '/fights/' + encodeURIComponent(cfg.fightId);
  var auth = 'token=' + encodeURIComponent(cfg.token);
  var root = document.getElementById('overlay');
  var statusEl = root.querySelector('.status');

  var SILENCE_MS = 40000;
  var lastSeq = 0;
  var viewSeq = -1;
  var view = null;
  var stopped = false;
  var over = false;

  // Drawing the view and following the last exchange: FightRender (render.script.ts), shared with the replay.
  var R = FightRender;
  var num = R.num, obj = R.obj;
  var renderer = R.createRenderer(root);
  var tracker = R.exchangeTracker();

  function sleep(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }

  function setStatus(text, fatal) {
    statusEl.hidden = !text;
    statusEl.textContent = text || '';
    statusEl.classList.toggle('fatal', !!fatal);
  }
  function stop(message) {
    stopped = true;
    setStatus(message, true);
  }

  // ---- the view: refetched after events, one request at a time ----
  var timer = null, inflight = false, dirty = false;
  function schedule(ms) {
    if (stopped || timer) return;
    timer = setTimeout(function () { timer = null; refresh(); }, ms === undefined ? 30 : ms);
  }
  function refresh() {
    if (inflight) { dirty = true; return; }
    inflight = true;
    var retry = 0;
    fetch(api + '?' + auth + (lastSeq ? '&minSeq=' + lastSeq : ''), { cache: 'no-store' })
      .then(function (res) {
        if (res.status === 401) { stop('Overlay stopped: this token was revoked or has expired.'); return null; }
        if (!res.ok) throw new Error('HTTP ' + res.status);
        return res.json();
      })
      .then(function (body) {
        if (!body) return;
        var seq = num(body.seq);
        if (seq !== null && seq >= viewSeq) { viewSeq = seq; view = obj(body.view) || {}; }
        render();
      })
      .catch(function () { retry = 1000; })
      .then(function () {
        inflight = false;
        if (retry) schedule(retry);
        else if (dirty) { dirty = false; schedule(0); }
      });
  }

  // ---- the event stream ----
  function stream() {
    var backoff = 500;
    function once() {
      if (stopped) return Promise.resolve();
      var ctl = new AbortController();
      var watchdog = 0;
      function arm() { clearTimeout(watchdog); watchdog = setTimeout(function () { ctl.abort(); }, SILENCE_MS); }
      arm();
      return fetch(api + '/stream?' + auth + '&after=' + lastSeq, { cache: 'no-store', signal: ctl.signal, headers: { accept: 'text/event-stream' } })
        .then(function (res) {
          if (res.status === 401) { stop('Overlay stopped: this token was revoked or has expired.'); return; }
          // 204: the fight has ended and its last event is in; the view stays as it ended.
          if (res.status === 204) { setStatus(''); over = true; return; }
          if (!res.ok || !res.body) throw new Error('HTTP ' + res.status);
          setStatus('');
          backoff = 500;
          schedule(0);
          var reader = res.body.getReader();
          var decoder = new TextDecoder();
          var buf = '';
          function pump() {
            return reader.read().then(function (r) {
              if (r.done) return;
              arm();
              buf += decoder.decode(r.value, { stream: true }).replace(/\r\n?/g, '\n');
              var cut;
              while ((cut = buf.indexOf('\n\n')) >= 0) {
                onMessage(buf.slice(0, cut));
                buf = buf.slice(cut + 2);
              }
              return pump();
            });
          }
          return pump();
        })
        .catch(function () {})
        .then(function () {
          clearTimeout(watchdog);
          ctl.abort();
          if (stopped || over) return;
          setStatus('Reconnecting\u2026');
          return sleep(backoff).then(function () { backoff = Math.min(backoff * 2, 3000); return once(); });
        });
    }
    return once();
  }

  function onMessage(block) {
    var id = null, data = '';
    block.split('\n').forEach(function (line) {
      if (!line || line.charAt(0) === ':') return;
      var i = line.indexOf(':');
      var field = i < 0 ? line : line.slice(0, i);
      var value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'data') data += (data ? '\n' : '') + value;
    });
    if (!data || id === null) return;
    var e;
    try { e = JSON.parse(data); } catch (err) { return; }
    var seq = Number(id);
    if (!(seq > lastSeq)) return;
    lastSeq = seq;
    // Nothing follows FightEnded: the stream ends after it, and is not opened again.
    if (obj(e) && e.type === 'FightEnded') over = true;
    if (obj(e)) noteEvent(e, seq);
    schedule();
  }

  function noteEvent(e, seq) { tracker.note(e, seq); }

  function render() {
    if (!view) return;
    // The seq of the view on screen: a reader (a test, a capture tool) can wait for a given state.
    document.body.dataset.seq = String(viewSeq);
    renderer.render(view, tracker.current());
  }

  schedule(0);
  stream();
})();
`;
