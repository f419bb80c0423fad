/**
 * The replay page's browser code, inlined after FIGHT_RENDER_SCRIPT (the overlay's drawing code) and the
 * verifier bundle (ReplayVerifier: libs/audit's verifier and libs/rules). It loads a fight log, from this
 * service (`GET /fights/:id/log` with the page's token) or from a file the person opens or drops (nothing is
 * sent anywhere), asks ReplayVerifier.openReplay for the verifier's report and the view at every seq, and
 * lets the person step through the events. Everything it says about a log is the report's: the same
 * verdicts POST /audit/verify gives. All text goes in through textContent.
 */
export const REPLAY_SCRIPT = String.raw`
(function () {
  'use strict';
  var cfg = JSON.parse(document.getElementById('replay-config').textContent);
  if (typeof ReplayVerifier === 'undefined') {
    // Its verifier is a script of the service: a copy saved as HTML only, opened from disk, has none.
    var missing = document.getElementById('verdict');
    missing.dataset.verdict = 'refused';
    missing.textContent = 'This copy of the page has no verifier, so it checks nothing: its verifier is a script of the service it was saved from. For a page that checks logs with no server at all, use "Save this page for offline use" on the service\u2019s /replay page (GET /replay/offline.html).';
    document.body.dataset.loaded = 'no-verifier';
    return;
  }
  var R = FightRender, V = ReplayVerifier;
  var el = R.el, fill = R.fill, num = R.num, obj = R.obj, list = R.list, str = R.str, humanize = R.humanize;
  function $(sel) { return document.querySelector(sel); }

  var stateRoot = $('#state');
  var renderer = R.createRenderer(stateRoot, { extras: true });
  var extrasEl = $('#extras');
  var timelineEl = $('#timeline');
  var detailEl = $('#detail');
  var verdictEl = $('#verdict');
  var sourceEl = $('#source');
  var scrub = $('#scrub');
  var atEl = $('#at');
  var headInput = $('#expect-head');
  var eventsInput = $('#expect-events');
  var statusEl = $('#status');
  var buttons = { first: $('#first'), prev: $('#prev'), next: $('#next'), last: $('#last'), prevRoll: $('#prev-roll'), nextRoll: $('#next-roll') };

  var replay = null;
  var text = null;
  var selected = 0;
  var rows = [];
  var undone = {};

  var VERDICT_TEXT = {
    verified: '\u2713 verified',
    committed: '\u25cf committed',
    unchecked: '\u2013 not re-run',
    diverges: '\u2715 breaks here',
    'after-break': '\u2715 after the break',
  };
  var VERDICT_LINE = {
    verified: 'Verified: its command, decided again with the dice it drew, gives exactly this event.',
    committed: 'Committed: the hash chain holds here; the dice wait for the seed, which is not yet revealed.',
    unchecked: 'Not re-run: see the decisions check in the report.',
    diverges: 'The log breaks here.',
    'after-break': 'After the break: nothing about this event is proven.',
  };

  function setStatus(message) {
    statusEl.hidden = !message;
    statusEl.textContent = message || '';
  }

  // ---- loading ----
  function open(body, name) {
    text = body;
    fill(sourceEl, [document.createTextNode(name)]);
    $('#save').hidden = !cfg.fightId;
    verify();
  }
  /** The log exactly as this page verified it, to keep or to check again elsewhere (the CLI, POST /audit/verify). */
  function save() {
    if (text === null) return;
    var a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    a.download = 'fight-' + (cfg.fightId || 'log') + '-' + (replay ? replay.events.length : 0) + '.json';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
  }
  function expected() {
    var e = {};
    var h = headInput.value.trim();
    var n = eventsInput.value.trim();
    if (h) e.headHash = h;
    if (n) e.events = n;
    return e;
  }
  function verify() {
    if (text === null) return;
    var result;
    try {
      result = V.openReplay(text, expected());
    } catch (err) {
      result = { ok: false, status: 500, code: 'INTERNAL', message: String(err && err.message || err) };
    }
    if (!result.ok) { replay = null; refused(result); return; }
    // Whoever watched the last event of a live fight goes on watching the last one.
    var wasAtEnd = !!replay && selected === replay.events.length;
    replay = result;
    undone = {};
    replay.events.forEach(function (e) {
      if (e.type !== 'ActionsUndone') return;
      list(obj(e.data) && e.data.undone).forEach(function (u) {
        if (obj(u) && num(u.fromSeq) !== null && num(u.toSeq) !== null) for (var s = u.fromSeq; s <= u.toSeq && s <= replay.events.length; s++) undone[s] = true;
      });
    });
    document.body.dataset.loaded = 'true';
    showVerdict();
    buildTimeline();
    scrub.min = replay.events.length ? '1' : '0';
    scrub.max = String(replay.events.length);
    var want = wasAtEnd ? replay.events.length : seqFromHash();
    select(want || Math.min(selected || replay.events.length, replay.events.length), true);
    $('#report-json').textContent = JSON.stringify(replay.report, null, 2);
    renderChecks();
  }
  function refused(r) {
    document.body.dataset.loaded = 'refused';
    verdictEl.dataset.verdict = 'refused';
    fill(verdictEl, [
      el('span', 'v', 'Not a fight log this verifier reads'),
      el('span', 'msg', r.message + (r.field ? ' (' + r.field + ')' : '') + ' \u2014 ' + r.code),
    ]);
    fill(timelineEl, []);
    fill(detailEl, [el('p', 'empty', 'POST /audit/verify refuses this input the same way (' + r.status + ' ' + r.code + ').')]);
    renderer.render({ combatants: [] }, null);
    R.renderExtras(extrasEl, {});
    $('#report-json').textContent = JSON.stringify(r, null, 2);
    fill($('#checks'), []);
  }

  function loadFromService() {
    if (!cfg.fightId) return;
    loading = true;
    if (!replay) setStatus('Loading the fight log\u2026');
    fetch('/fights/' + encodeURIComponent(cfg.fightId) + '/log?token=' + encodeURIComponent(cfg.token), { cache: 'no-store', headers: { accept: 'application/json' } })
      .then(function (res) {
        return res.text().then(function (body) {
          if (!res.ok) {
            var why = '';
            try { why = JSON.parse(body).message || ''; } catch (e) {}
            throw new Error('HTTP ' + res.status + (why ? ': ' + why : ''));
          }
          return body;
        });
      })
      .then(function (body) {
        setStatus('');
        open(body, 'Fight ' + cfg.fightId + ' (from this service)');
        if (replay && !ended()) follow();
        else unfollow();
        if (following) sourceEl.appendChild(el('span', 'live', ' \u00b7 following live'));
      })
      .catch(function (err) { setStatus('The fight log could not be loaded: ' + err.message); })
      .then(function () {
        loading = false;
        if (again) { again = false; loadFromService(); }
      });
  }
  function ended() { return replay.events.some(function (e) { return e.type === 'FightEnded'; }); }

  // ---- a live fight: its event stream says when to fetch the log again ----
  var following = false, loading = false, again = false, streamCtl = null;
  function reloadSoon() {
    if (loading) again = true;
    else loadFromService();
  }
  function unfollow() {
    following = false;
    if (streamCtl) streamCtl.abort();
  }
  function follow() {
    if (following) return;
    following = true;
    var backoff = 500;
    function once() {
      if (!following) return;
      var ctl = streamCtl = new AbortController();
      var after = replay ? replay.events.length : 0;
      fetch('/fights/' + encodeURIComponent(cfg.fightId) + '/stream?token=' + encodeURIComponent(cfg.token) + '&after=' + after, { cache: 'no-store', signal: ctl.signal, headers: { accept: 'text/event-stream' } })
        .then(function (res) {
          if (res.status === 401 || res.status === 404) { following = false; setStatus('No longer following: this token was revoked or has expired.'); return; }
          // 204: the fight has ended and every event is in (the log is fetched again when the stream ends).
          if (res.status === 204) { following = false; return; }
          if (!res.ok || !res.body) throw new Error('HTTP ' + res.status);
          backoff = 500;
          var reader = res.body.getReader(), decoder = new TextDecoder(), buf = '';
          function pump() {
            return reader.read().then(function (r) {
              if (r.done) return;
              buf += decoder.decode(r.value, { stream: true }).replace(/\r\n?/g, '\n');
              var cut, events = false;
              while ((cut = buf.indexOf('\n\n')) >= 0) {
                if (/(^|\n)data:/.test(buf.slice(0, cut))) events = true;
                buf = buf.slice(cut + 2);
              }
              if (events) reloadSoon();
              return pump();
            });
          }
          return pump();
        })
        .catch(function () {})
        .then(function () {
          if (!following) return;
          setTimeout(once, backoff);
          backoff = Math.min(backoff * 2, 5000);
        });
    }
    once();
  }
  function openFile(file) {
    if (!file) return;
    unfollow();
    setStatus('Reading ' + file.name + '\u2026');
    var reader = new FileReader();
    reader.onload = function () { setStatus(''); open(String(reader.result), file.name + ' (a file, checked in this browser)'); };
    reader.onerror = function () { setStatus('This file could not be read.'); };
    reader.readAsText(file);
  }

  // ---- the verdict over the whole log ----
  function shortHash(h) { return str(h).slice(0, 12) + (str(h).length > 12 ? '\u2026' : ''); }
  function showVerdict() {
    var rep = replay.report, seed = replay.seed;
    var d = rep.firstDivergence;
    var kind = !rep.ok ? 'broken' : rep.complete ? 'verified' : 'so-far';
    verdictEl.dataset.verdict = kind;
    document.body.dataset.verdict = kind;
    var v = !rep.ok ? 'NOT VERIFIED' : rep.complete ? 'VERIFIED \u2014 the whole fight' : 'VERIFIED so far \u2014 the fight has not ended';
    var parts = [el('span', 'v', v), el('span', 'count', rep.events + ' events \u00b7 ' + (R.SYSTEM_NAMES[replay.system] || replay.system))];
    var s;
    if (seed.mode === 'manual') s = el('span', 'seed', 'Manual dice: the faces were entered at the table; every decision is re-run with them.');
    else if (seed.status === 'revealed') s = el('span', 'seed', 'Seed revealed at seq ' + seed.revealedAt + '; it hashes to the commitment ' + shortHash(seed.commitment) + ' (RULINGS C2); every die is recomputed from it (C5).');
    else if (seed.status === 'not-revealed') s = el('span', 'seed', 'Seed not yet revealed: the dice are committed (' + shortHash(seed.commitment) + ') and are recomputed when FightEnded reveals the seed.');
    else s = el('span', 'seed', 'The revealed seed does not match the commitment: the dice cannot be recomputed.');
    s.dataset.seed = seed.mode === 'manual' ? 'manual' : seed.status;
    parts.push(s);
    if (d) {
      var b = el('span', 'break', 'Breaks at seq ' + d.seq + ' (' + d.check + '): ' + d.message);
      b.dataset.seq = String(d.seq);
      if (d.seq >= 1 && d.seq <= replay.events.length) {
        var go = el('button', null, 'Go to seq ' + d.seq);
        go.type = 'button';
        go.addEventListener('click', function () { select(d.seq); });
        b.appendChild(go);
      }
      parts.push(b);
    }
    if (replay.foldStopped) parts.push(el('span', 'break', 'The fight cannot be drawn past seq ' + (replay.foldStopped.seq - 1) + ': ' + replay.foldStopped.message));
    fill(verdictEl, parts);
  }
  function renderChecks() {
    var rep = replay.report;
    var rows = Object.keys(rep.checks).map(function (name) {
      var c = rep.checks[name];
      var tr = el('tr');
      tr.appendChild(el('td', null, name));
      tr.appendChild(el('td', 'st-' + c.status, c.status));
      tr.appendChild(el('td', null, c.detail || ''));
      return tr;
    });
    rep.proven.forEach(function (p) { var tr = el('tr'); tr.appendChild(el('td', null, p)); tr.appendChild(el('td', 'st-ok', 'proven')); tr.appendChild(el('td')); rows.push(tr); });
    rep.notProven.forEach(function (p) { var tr = el('tr'); tr.appendChild(el('td', null, p.claim)); tr.appendChild(el('td', 'st-skipped', 'not proven')); tr.appendChild(el('td', null, p.reason)); rows.push(tr); });
    fill($('#checks'), rows);
  }

  // ---- the timeline ----
  function time(at) { var m = /T(\d\d:\d\d:\d\d)/.exec(str(at)); return m ? m[1] : str(at); }
  function buildTimeline() {
    rows = replay.events.map(function (e) {
      var li = el('li', 'ev' + (undone[e.seq] ? ' undone' : ''));
      li.dataset.seq = String(e.seq);
      li.dataset.verdict = e.verdict;
      li.dataset.chain = e.chain;
      li.id = 'ev-' + e.seq;
      li.setAttribute('role', 'option');
      li.appendChild(el('span', 'seq', e.seq));
      li.appendChild(el('span', 'type', e.type));
      li.appendChild(el('span', 'badge', VERDICT_TEXT[e.verdict] + (e.rolls.length ? ' \u00b7 ' + e.rolls.length + (e.rolls.length === 1 ? ' roll' : ' rolls') : '')));
      li.appendChild(el('span', 'meta', time(e.at) + ' \u00b7 ' + e.actor + (e.command ? ' \u00b7 ' + e.command : '') + (undone[e.seq] ? ' \u00b7 undone' : '')));
      li.addEventListener('click', function () { select(e.seq); });
      return li;
    });
    var d = replay.report.firstDivergence;
    if (d && d.seq > replay.events.length) {
      var end = el('li', 'ev-end', 'After seq ' + replay.events.length + ': ' + d.message);
      end.dataset.seq = String(d.seq);
      rows.push(end);
    }
    fill(timelineEl, rows);
  }

  // ---- selecting an event ----
  function seqFromHash() {
    var m = /(?:^#|&)seq=(\d+)/.exec(location.hash);
    if (!m || !replay) return 0;
    return Math.max(1, Math.min(Number(m[1]), replay.events.length));
  }
  function select(seq, fromLoad) {
    if (!replay || !replay.events.length) { showEmptyState(); return; }
    seq = Math.max(1, Math.min(seq, replay.events.length));
    var changed = seq !== selected;
    selected = seq;
    document.body.dataset.seq = String(seq);
    scrub.value = String(seq);
    atEl.textContent = 'seq ' + seq + ' / ' + replay.events.length;
    buttons.first.disabled = buttons.prev.disabled = seq <= 1;
    buttons.next.disabled = buttons.last.disabled = seq >= replay.events.length;
    buttons.prevRoll.disabled = rollNear(seq, -1) === 0;
    buttons.nextRoll.disabled = rollNear(seq, 1) === 0;
    timelineEl.querySelectorAll('.ev.selected').forEach(function (li) { li.classList.remove('selected'); li.removeAttribute('aria-selected'); });
    var row = document.getElementById('ev-' + seq);
    if (row) {
      row.classList.add('selected');
      row.setAttribute('aria-selected', 'true');
      if (changed || fromLoad) row.scrollIntoView({ block: 'nearest' });
    }
    timelineEl.setAttribute('aria-activedescendant', 'ev-' + seq);
    if ('#seq=' + seq !== location.hash) history.replaceState(null, '', '#seq=' + seq);
    drawState(seq);
    drawDetail(replay.events[seq - 1]);
  }
  function rollNear(seq, dir) {
    for (var s = seq + dir; s >= 1 && s <= replay.events.length; s += dir) if (replay.events[s - 1].rolls.length) return s;
    return 0;
  }
  function showEmptyState() {
    fill(detailEl, [el('p', 'empty', 'This log holds no event.')]);
  }

  // ---- the fight at the selected event: the overlay's components ----
  function drawState(seq) {
    var drawn = Math.min(seq, replay.views.length);
    var view = drawn ? replay.views[drawn - 1] : { combatants: [] };
    var tracker = R.exchangeTracker();
    for (var i = 0; i < seq; i++) tracker.note(replay.events[i], i + 1);
    renderer.render(view, tracker.current());
    R.renderExtras(extrasEl, view);
    stateRoot.dataset.viewSeq = String(drawn);
    $('#state-note').textContent = drawn < seq ? 'The fight as of seq ' + drawn + ': it cannot be folded past it (see the verdict).' : 'The fight after seq ' + seq + ', folded in this browser with the rules of ' + (R.SYSTEM_NAMES[replay.system] || replay.system) + '.';
  }
  function names() {
    var view = replay.views[Math.min(selected, replay.views.length) - 1] || {};
    var byId = {};
    list(view.combatants).forEach(function (c) { if (obj(c)) byId[str(c.id)] = str(c.name) || str(c.id); });
    return function (id) { return byId[str(id)] || str(id); };
  }

  // ---- the selected event: envelope, hash, verdict, dice ----
  function diceRow(faces, cls) {
    var d = el('span', 'dice' + (cls ? ' ' + cls : ''));
    faces.forEach(function (f) { d.appendChild(el('i', 'die', f)); });
    return d;
  }
  /** A roll that names no combatant: the attack's is the attacker's, a defence's or dodge's the target's. */
  function rollerOf(d, path) {
    d = obj(d) || {};
    if (/^attack\b/.test(path) && d.attackerId) return d.attackerId;
    if (/^(soulDefence|defen[cs]e|dodge)\b/.test(path) && d.targetId) return d.targetId;
    return '';
  }
  function drawDetail(e) {
    var name = names();
    var parts = [];
    parts.push(el('h2', null, 'seq ' + e.seq + ' \u00b7 ' + e.type));
    parts.push(el('div', 'sub', e.at + ' \u00b7 actor ' + e.actor + (e.command ? ' \u00b7 appended by ' + e.command : '') + ' \u00b7 command ' + e.commandId));
    if (undone[e.seq]) parts.push(el('div', 'sub', 'Taken back by a later UndoCommands (the event stays in the log).'));
    var line = el('div', 'status-line', VERDICT_LINE[e.verdict]);
    line.dataset.verdict = e.verdict;
    parts.push(line);
    var chain = el('div', 'chain', e.chain === 'ok' ? 'Hash ' + shortHash(e.hash) + ' follows from ' + (e.seq === 1 ? 'the genesis' : 'seq ' + (e.seq - 1)) + '.' : e.chain === 'broken' ? 'Hash ' + shortHash(e.hash) + ' does NOT follow from the previous hash: the chain breaks here.' : 'Hash chain broken before this event.');
    chain.dataset.chain = e.chain;
    parts.push(chain);
    var d = replay.report.firstDivergence;
    if (d && d.seq === e.seq) {
      var box = el('div', 'divergence');
      box.appendChild(el('b', null, d.check + ': '));
      box.appendChild(document.createTextNode(d.message));
      box.appendChild(el('div', 'sub', 'expected (the verifier, from the rules)'));
      box.appendChild(el('pre', 'expected', JSON.stringify(d.expected, null, 1)));
      box.appendChild(el('div', 'sub', 'found (the log)'));
      box.appendChild(el('pre', 'found', JSON.stringify(d.found, null, 1)));
      parts.push(box);
    }
    if (e.rolls.length) {
      var rolls = el('div', 'rolls');
      e.rolls.forEach(function (r) {
        var box = el('div', 'roll');
        box.dataset.status = r.status;
        var who = r.combatantId || rollerOf(e.data, r.path);
        box.appendChild(el('span', 'who', who ? name(who) : 'Roll'));
        box.appendChild(el('span', 'what', ' \u00b7 ' + r.path + ' \u00b7 ' + r.faces.length + 'd' + r.sides + (r.draw !== undefined ? ' \u00b7 draw ' + r.draw : '')));
        box.appendChild(diceRow(r.faces, 'recorded'));
        var check;
        if (r.status === 'verified') check = '\u2713 verified: draw ' + r.draw + ' of the revealed seed gives ' + r.recomputed.join(' ') + ' (RULINGS C5)';
        else if (r.status === 'mismatch') check = '\u2715 draw ' + r.draw + ' of the revealed seed gives ' + r.recomputed.join(' ') + ', not these faces';
        else if (r.status === 'committed') check = '\u25cf committed: seed not yet revealed, so the faces cannot be recomputed yet';
        else if (r.status === 'manual') check = 'Manual dice: faces entered at the table (no draw to recompute)';
        else check = 'Not recomputed: the seed is not usable (see the seed check)';
        box.appendChild(el('div', 'check', check));
        rolls.appendChild(box);
      });
      parts.push(rolls);
    } else parts.push(el('div', 'sub', 'No dice in this event.'));
    var raw = el('details');
    raw.appendChild(el('summary', null, 'Event data'));
    raw.appendChild(el('pre', null, JSON.stringify(e.data, null, 1)));
    parts.push(raw);
    fill(detailEl, parts);
  }

  // ---- controls ----
  buttons.first.addEventListener('click', function () { select(1); });
  buttons.prev.addEventListener('click', function () { select(selected - 1); });
  buttons.next.addEventListener('click', function () { select(selected + 1); });
  buttons.last.addEventListener('click', function () { if (replay) select(replay.events.length); });
  buttons.prevRoll.addEventListener('click', function () { var s = rollNear(selected, -1); if (s) select(s); });
  buttons.nextRoll.addEventListener('click', function () { var s = rollNear(selected, 1); if (s) select(s); });
  scrub.addEventListener('input', function () { select(Number(scrub.value)); });
  $('#file').addEventListener('change', function (ev) { openFile(ev.target.files && ev.target.files[0]); ev.target.value = ''; });
  $('#reload').hidden = !cfg.fightId;
  $('#save').addEventListener('click', save);
  $('#reload').addEventListener('click', loadFromService);
  $('#reverify').addEventListener('click', verify);
  window.addEventListener('hashchange', function () { var s = seqFromHash(); if (s && s !== selected) select(s); });
  document.addEventListener('keydown', function (ev) {
    if (!replay || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var t = ev.target;
    if (t === scrub || (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable))) return;
    var step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, PageUp: -10, PageDown: 10 }[ev.key];
    if (step) select(selected + step);
    else if (ev.key === 'Home') select(1);
    else if (ev.key === 'End') select(replay.events.length);
    else return;
    ev.preventDefault();
  });
  var depth = 0;
  window.addEventListener('dragenter', function (ev) { ev.preventDefault(); depth++; document.body.classList.add('dragging'); });
  window.addEventListener('dragleave', function () { if (--depth <= 0) { depth = 0; document.body.classList.remove('dragging'); } });
  window.addEventListener('dragover', function (ev) { ev.preventDefault(); });
  window.addEventListener('drop', function (ev) {
    ev.preventDefault();
    depth = 0;
    document.body.classList.remove('dragging');
    openFile(ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files[0]);
  });

  renderer.render({ combatants: [] }, null);
  if (cfg.fightId) loadFromService();
  else setStatus('');
})();
`;
