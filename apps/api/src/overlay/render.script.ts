/**
 * How the overlay draws a fight view, shared by every page that shows one (the overlay, the replay): browser
 * code inlined into the page before the page's own script, which it gives one global, `FightRender`.
 *
 * - `createRenderer(root, options)` fills the `.head`, `.cards` and `.exchange` elements under `root` from a
 *   fight view; `render(view, exchange)` may be called as often as the view changes.
 * - `exchangeTracker()` follows the events of a fight and keeps its last exchange (the view keeps only the one
 *   in progress): `note(event, seq)`, `current()`.
 * - With `options.extras`, what a page with room shows besides: the Arcana Beast Critical Gauge and range
 *   bands, and `renderMap(el, view)`, the Archsoul battle map with positions and facings.
 *
 * Every field is read defensively (a system this code does not know shows its common parts), and all text
 * goes in through textContent.
 */
export const FIGHT_RENDER_SCRIPT = String.raw`
var FightRender = (function () {
  'use strict';
  var SYSTEM_NAMES = { narateer: 'Narateer', 'arcana-beast': 'Arcana Beast', archsoul: 'Archsoul' };
  var ARROWS = { N: '\u2191', NE: '\u2197', E: '\u2192', SE: '\u2198', S: '\u2193', SW: '\u2199', W: '\u2190', NW: '\u2196' };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function fill(parent, children) {
    while (parent.firstChild) parent.removeChild(parent.firstChild);
    children.forEach(function (c) { if (c) parent.appendChild(c); });
  }
  function num(v) { return typeof v === 'number' && isFinite(v) ? v : null; }
  function obj(v) { return v && typeof v === 'object' && !Array.isArray(v) ? v : null; }
  function list(v) { return Array.isArray(v) ? v : []; }
  function str(v) { return typeof v === 'string' || typeof v === 'number' ? String(v) : ''; }
  function humanize(s) { var h = str(s).replace(/([a-z])([A-Z])/g, '$1 $2'); return h.charAt(0).toUpperCase() + h.slice(1); }

  // ---- the last exchange, from the events (the view keeps only the one in progress) ----
  function faces(v) { return list(v).filter(function (f) { return num(f) !== null; }); }
  function rollFaces(side) {
    side = obj(side) || {};
    return faces(side.faces).length ? faces(side.faces) : faces((obj(side.roll) || {}).faces);
  }
  function exchangeTracker() {
    var exchange = null;
    function noteEvent(e, seq) {
      var d = obj(e.data) || {};
      var x = exchangeFrom(e.type, d);
      if (x) {
        x.seq = seq;
        x.commandId = e.commandId;
        x.exchangeId = d.exchangeId;
        x.attackNo = d.attackNo;
        x.effects = [];
        exchange = x;
        return;
      }
      if (exchange && (e.type === 'WoundsApplied' || e.type === 'DamageDealt') && linked(e, d)) {
        var amount = num(d.wounds) !== null ? num(d.wounds) : num(d.damage);
        if (amount === null) return;
        var unit = num(d.wounds) !== null ? (amount === 1 ? 'wound' : 'wounds') : 'damage';
        var after = num(d.vitality) !== null ? 'Vitality ' + d.vitality : num(d.hp) !== null ? 'HP ' + d.hp : '';
        exchange.effects.push({ who: d.combatantId, text: amount + ' ' + unit + (after ? ' \u2192 ' + after : '') });
      }
    }
    function linked(e, d) {
      if (d.exchangeId !== undefined && exchange.exchangeId !== undefined) return d.exchangeId === exchange.exchangeId;
      if (d.attackNo !== undefined && exchange.attackNo !== undefined) return d.attackNo === exchange.attackNo;
      return !!e.commandId && e.commandId === exchange.commandId;
    }

    return { note: noteEvent, current: function () { return exchange; } };
  }

  function exchangeFrom(type, d) {
    var a = obj(d.attacker), atk = obj(d.attack);
    // Narateer: both sides rolled, faces after Edge, totals, outcome and winner.
    if (type === 'ExchangeResolved' && a && a.total !== undefined) {
      var r = obj(d.responder);
      var sides = [{ who: a.combatantId, faces: rollFaces(a), note: 'total ' + str(a.total) }];
      if (r) sides.push({ who: r.combatantId, faces: rollFaces(r), note: 'total ' + str(r.total) });
      else if (num(d.targetNumber) !== null) sides.push({ label: 'Target number', note: str(d.targetNumber) });
      var outcome = { hit: 'Hit', counterHit: 'Counter-hit', guarded: 'Guarded', tie: 'Tie' }[d.outcome] || humanize(d.outcome);
      return {
        attackerId: d.attackerId, targetId: d.targetId, what: humanize(d.kind), sides: sides, outcome: outcome, winnerId: d.winnerId,
        tone: d.outcome === 'tie' ? 'even' : d.outcome === 'guarded' ? 'bad' : 'good',
        details: num(d.hitMargin) !== null ? ['margin ' + d.hitMargin] : [],
      };
    }
    // Arcana Beast: attack pool against dodge pool, one die dropped by Setback.
    if (type === 'AttackResolved' && atk) {
      var dodge = obj(d.dodge);
      var s = [pool(atk, d.attackerId)];
      if (dodge) s.push(pool(dodge, d.targetId));
      return {
        attackerId: d.attackerId, targetId: d.targetId, what: str(d.attackName), sides: s,
        outcome: d.outcome === 'hit' ? (d.critical ? 'Critical hit' : 'Hit') : 'Miss', tone: d.outcome === 'hit' ? 'good' : 'bad',
        details: num(d.damage) !== null && d.outcome === 'hit' ? [d.damage + ' damage'] : [],
      };
    }
    // Archsoul: an attack test against a difficulty, maybe a Soul Defence test.
    if (type === 'ExchangeResolved' && atk && obj(atk.roll)) {
      var sd = obj(d.soulDefence);
      var t = [test(atk, d.attackerId)];
      if (sd) t.push(test(sd, d.targetId));
      return {
        attackerId: d.attackerId, targetId: d.targetId, what: humanize(d.attackType), sides: t,
        outcome: d.hit ? 'Hit' : 'Miss', tone: d.hit ? 'good' : 'bad',
        details: num(d.defense) !== null ? ['Defense ' + d.defense] : [],
      };
    }
    // A system this page does not know yet: any resolution that carries dice.
    if (/Resolved$/.test(type)) {
      var found = [];
      findRolls(d, null, 0, found);
      if (!found.length) return null;
      return { attackerId: d.attackerId, targetId: d.targetId, what: humanize(type.replace(/Resolved$/, '')), sides: found, outcome: '', tone: 'even', details: [] };
    }
    return null;
  }
  function pool(p, fallbackId) {
    var all = rollFaces(p);
    var dropped = obj(p.dropped);
    return { who: p.combatantId || fallbackId, faces: all, dropped: dropped ? num(dropped.index) : null, note: num(p.successes) !== null ? p.successes + (p.successes === 1 ? ' success' : ' successes') : '' };
  }
  function test(t, who) {
    var n = num(t.successes);
    return { who: who, faces: rollFaces(t), note: (n !== null ? n + (n === 1 ? ' success' : ' successes') : '') + (num(t.difficulty) !== null ? ' (difficulty ' + t.difficulty + ')' : '') };
  }
  function findRolls(v, who, depth, out) {
    if (depth > 4 || out.length >= 4) return;
    var o = obj(v);
    if (!o) { list(v).forEach(function (x) { findRolls(x, who, depth + 1, out); }); return; }
    var id = o.combatantId || who;
    if (faces(o.faces).length) { out.push({ who: id, faces: faces(o.faces), note: num(o.total) !== null ? 'total ' + o.total : '' }); return; }
    Object.keys(o).forEach(function (k) { findRolls(o[k], id, depth + 1, out); });
  }


  // ---- rendering ----
  function health(c) {
    if (num(c.vitality) !== null) return { label: 'Vitality', value: c.vitality, max: num(c.maxVitality) };
    if (num(c.hp) !== null) return { label: 'HP', value: c.hp, max: num(c.maxHp) };
    return null;
  }
  function pips(kind, counts) {
    var wrap = el('span', 'pips');
    counts.forEach(function (pair) {
      for (var i = 0; i < Math.min(pair[1], 20); i++) wrap.appendChild(el('i', 'pip ' + kind + pair[0]));
    });
    return wrap;
  }
  function item(key, value, extra) {
    var it = el('span', 'res-item');
    it.appendChild(el('span', 'k', key));
    if (value !== null && value !== undefined) it.appendChild(el('span', 'v', value));
    if (extra) it.appendChild(extra);
    return it;
  }
  function resources(c) {
    var out = [];
    // Narateer: Ready / Used / Wounded dice of each pool.
    [['AD', c.ad], ['MD', c.md]].forEach(function (p) {
      var d = obj(p[1]);
      if (!d || num(d.ready) === null) return;
      if (num(d.max) === 0 && !d.ready && !d.used && !d.wounded) return;
      var it = item(p[0], null, pips('', [['ready', d.ready], ['used', num(d.used) || 0], ['wounded', num(d.wounded) || 0]]));
      it.dataset.res = p[0].toLowerCase();
      it.title = p[0] + ': ' + d.ready + ' ready, ' + (d.used || 0) + ' used, ' + (d.wounded || 0) + ' wounded';
      out.push(it);
    });
    // Arcana Beast: Stage (beasts) and Stamina.
    if (num(c.stage) !== null) {
      var st = list(c.stages).filter(function (s) { return obj(s) && s.stage === c.stage && s.name && s.name !== 'Stage ' + c.stage; })[0];
      var stage = item('Stage', String(c.stage) + (st ? ' \u00b7 ' + str(st.name) : ''));
      stage.dataset.res = 'stage';
      out.push(stage);
    }
    if (num(c.stamina) !== null) {
      var max = num(c.maxStamina);
      var stamina = max !== null && max <= 12
        ? item('Stamina', null, pips('stamina ', [['ready', c.stamina], ['used', Math.max(0, max - c.stamina)]]))
        : item('Stamina', String(c.stamina) + (max !== null ? '/' + max : ''));
      stamina.dataset.res = 'stamina';
      stamina.title = 'Stamina ' + c.stamina + (max !== null ? ' of ' + max : '');
      out.push(stamina);
    }
    // Archsoul: Action Points and facing.
    if (num(c.ap) !== null) {
      var ap = item('AP', String(c.ap));
      ap.dataset.res = 'ap';
      out.push(ap);
    }
    if (typeof c.facing === 'string' && c.facing) {
      var facing = item('Facing', (ARROWS[c.facing] ? ARROWS[c.facing] + ' ' : '') + c.facing);
      facing.dataset.res = 'facing';
      out.push(facing);
    }
    return out;
  }
  function conditions(c) {
    var out = [];
    list(c.conditions).forEach(function (k) {
      if (typeof k === 'string') return out.push(humanize(k));
      var o = obj(k);
      if (!o) return;
      var name = humanize(o.condition || o.name || o.type);
      var n = num(o.intensity) !== null ? o.intensity : num(o.amount);
      if (name) out.push(name + (n !== null && n > 1 ? ' ' + n : ''));
    });
    list(c.lingeringHarm).forEach(function (l) { var o = obj(l); if (o && o.label) out.push(str(o.label)); });
    list(c.harms).forEach(function (h) { if (typeof h === 'string') out.push(h); });
    return out;
  }


  // ---- extras: what a page with room shows besides the cards (options.extras, renderExtras) ----
  var SVG = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) e.textContent = String(text);
    return e;
  }
  /** Arcana Beast: the range band from this combatant to each other one. */
  function bandChips(c, name) {
    var b = obj(c.bands);
    if (!b) return [];
    return Object.keys(b).map(function (id) {
      var chip = el('span', 'chip band', name(id) + ': ' + humanize(b[id]));
      chip.dataset.band = str(b[id]);
      chip.dataset.other = id;
      return chip;
    });
  }
  /** Arcana Beast: the player side's Critical Gauge, a Critical Move at 3, 6 and 9 (RULINGS.md A7). */
  function gauge(view) {
    var value = num(view.criticalGauge);
    if (value === null) return null;
    var g = el('div', 'gauge panel');
    g.dataset.value = String(value);
    g.appendChild(el('span', 'k', 'Critical Gauge'));
    var track = el('span', 'gauge-track');
    for (var i = 1; i <= Math.max(9, Math.min(value, 30)); i++) track.appendChild(el('i', 'gp' + (i <= value ? ' on' : '') + (i % 3 === 0 ? ' mark' : '')));
    g.appendChild(track);
    g.appendChild(el('span', 'v', value + ' / 9'));
    return g;
  }
  var SQRT3 = Math.sqrt(3);
  var HEX_DIRS = { N: [0, -1], NE: [SQRT3 / 2, -0.5], SE: [SQRT3 / 2, 0.5], S: [0, 1], SW: [-SQRT3 / 2, 0.5], NW: [-SQRT3 / 2, -0.5] };
  var SQUARE_DIRS = { N: [0, -1], NE: [0.7071, -0.7071], E: [1, 0], SE: [0.7071, 0.7071], S: [0, 1], SW: [-0.7071, 0.7071], W: [-1, 0], NW: [-0.7071, -0.7071] };
  function space(v) { var o = obj(v); return o && num(o.x) !== null && num(o.y) !== null ? { x: o.x, y: o.y } : null; }
  /**
   * Archsoul: the battle map (RULINGS.md S5). Hex: pointy-topped, axial x = q, y = r growing downward, the
   * facings at the corners; square: x right, y up, eight facings. Each combatant is a token on its space with
   * a wedge toward its facing; blocked spaces are filled, walls drawn on the edge between two spaces.
   */
  function battleMap(view) {
    var map = obj(view.map);
    if (!map) return null;
    var hex = map.grid !== 'square';
    var S = 22;
    var centre = hex
      ? function (p) { return [S * SQRT3 * (p.x + p.y / 2), S * 1.5 * p.y]; }
      : function (p) { return [p.x * S * 2, -p.y * S * 2]; };
    var tokens = list(view.combatants).map(function (c) { return obj(c) && space(c.position) ? c : null; }).filter(Boolean);
    var blocked = list(map.blocked).map(space).filter(Boolean);
    var walls = list(map.walls).filter(function (w) { return Array.isArray(w) && space(w[0]) && space(w[1]); });
    var points = tokens.map(function (c) { return space(c.position); }).concat(blocked);
    walls.forEach(function (w) { points.push(space(w[0]), space(w[1])); });
    if (!points.length) points.push({ x: 0, y: 0 });
    var px = points.map(centre);
    var minX = Math.min.apply(null, px.map(function (p) { return p[0]; })) - 2 * S, maxX = Math.max.apply(null, px.map(function (p) { return p[0]; })) + 2 * S;
    var minY = Math.min.apply(null, px.map(function (p) { return p[1]; })) - 2 * S, maxY = Math.max.apply(null, px.map(function (p) { return p[1]; })) + 2 * S;
    var root = svg('svg', { class: 'map', viewBox: [minX, minY, maxX - minX, maxY - minY].map(function (n) { return n.toFixed(1); }).join(' '), role: 'img' });
    root.dataset.grid = hex ? 'hex' : 'square';
    root.appendChild(svg('title', {}, (hex ? 'Hex' : 'Square') + ' battle map'));
    var isBlocked = {};
    blocked.forEach(function (b) { isBlocked[b.x + ',' + b.y] = true; });
    var cells = svg('g', { class: 'cells' });
    var cellsDrawn = 0;
    function cell(p) {
      var c = centre(p);
      var attrs = { 'data-x': p.x, 'data-y': p.y, class: 'cell' + (isBlocked[p.x + ',' + p.y] ? ' blocked' : '') };
      var shape;
      if (hex) {
        var pts = [];
        for (var k = 0; k < 6; k++) { var a = Math.PI / 180 * (60 * k - 30); pts.push((c[0] + S * Math.cos(a)).toFixed(1) + ',' + (c[1] + S * Math.sin(a)).toFixed(1)); }
        attrs.points = pts.join(' ');
        shape = svg('polygon', attrs);
      } else {
        attrs.x = c[0] - S; attrs.y = c[1] - S; attrs.width = 2 * S; attrs.height = 2 * S;
        shape = svg('rect', attrs);
      }
      cells.appendChild(shape);
      cellsDrawn++;
    }
    if (hex) {
      for (var r = Math.floor(minY / (1.5 * S)); r <= Math.ceil(maxY / (1.5 * S)) && cellsDrawn < 4000; r++) {
        for (var q = Math.floor(minX / (SQRT3 * S) - r / 2); q <= Math.ceil(maxX / (SQRT3 * S) - r / 2) && cellsDrawn < 4000; q++) cell({ x: q, y: r });
      }
    } else {
      for (var y = Math.ceil(-maxY / (2 * S)); y <= Math.floor(-minY / (2 * S)) && cellsDrawn < 4000; y++) {
        for (var x = Math.ceil(minX / (2 * S)); x <= Math.floor(maxX / (2 * S)) && cellsDrawn < 4000; x++) cell({ x: x, y: y });
      }
    }
    root.appendChild(cells);
    var wallLayer = svg('g', { class: 'walls' });
    walls.forEach(function (w) {
      var a = centre(space(w[0])), b = centre(space(w[1]));
      var mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2, dx = b[0] - a[0], dy = b[1] - a[1];
      var len = Math.sqrt(dx * dx + dy * dy) || 1, half = S / (hex ? 2 : 1);
      wallLayer.appendChild(svg('line', { class: 'wall', x1: (mx - dy / len * half).toFixed(1), y1: (my + dx / len * half).toFixed(1), x2: (mx + dy / len * half).toFixed(1), y2: (my - dx / len * half).toFixed(1) }));
    });
    root.appendChild(wallLayer);
    var tokenLayer = svg('g', { class: 'tokens' });
    var active = {};
    if (view.activeCombatantId) active[str(view.activeCombatantId)] = true;
    list(view.openTurns).forEach(function (id) { active[str(id)] = true; });
    tokens.forEach(function (c) {
      var p = space(c.position), at = centre(p);
      var g = svg('g', { class: 'token' + (active[str(c.id)] ? ' active' : '') + (str(c.state) && !/^(active|ready)$/i.test(str(c.state)) ? ' out' : ''), 'data-id': str(c.id), 'data-x': p.x, 'data-y': p.y, 'data-facing': str(c.facing), 'data-party': str(c.party || c.side) });
      var dir = (hex ? HEX_DIRS : SQUARE_DIRS)[str(c.facing)];
      if (dir) {
        var tip = [at[0] + dir[0] * S * 0.95, at[1] + dir[1] * S * 0.95];
        var side = [-dir[1] * S * 0.42, dir[0] * S * 0.42];
        var base = [at[0] + dir[0] * S * 0.35, at[1] + dir[1] * S * 0.35];
        g.appendChild(svg('polygon', { class: 'facing', points: [tip, [base[0] + side[0], base[1] + side[1]], [base[0] - side[0], base[1] - side[1]]].map(function (q) { return q[0].toFixed(1) + ',' + q[1].toFixed(1); }).join(' ') }));
      }
      g.appendChild(svg('circle', { class: 'disc', cx: at[0].toFixed(1), cy: at[1].toFixed(1), r: (S * 0.55).toFixed(1) }));
      var label = str(c.name) || str(c.id);
      g.appendChild(svg('text', { class: 'initials', x: at[0].toFixed(1), y: (at[1] + S * 0.2).toFixed(1), 'text-anchor': 'middle' }, label.slice(0, 2)));
      g.appendChild(svg('title', {}, label + ' at (' + p.x + ', ' + p.y + ')' + (c.facing ? ', facing ' + c.facing : '')));
      tokenLayer.appendChild(g);
    });
    root.appendChild(tokenLayer);
    return root;
  }
  /** The extras of a view into the container: the Critical Gauge (Arcana Beast) and the battle map (Archsoul). */
  function renderExtras(container, view) {
    fill(container, [gauge(view || {}), battleMap(view || {})]);
  }

  function createRenderer(root, options) {
    options = options || {};
    var headEl = root.querySelector('.head');
    var cardsEl = root.querySelector('.cards');
    var exchangeEl = root.querySelector('.exchange');
    var cards = new Map();
    var view = null;
    var exchange = null;
    var exchangeKey = '';
    var shownExchangeSeq = 0;
    var nameOf = str;

    function cardFor(id) {
      var card = cards.get(id);
      if (card) return card;
      var rootEl = el('article', 'card panel');
      rootEl.dataset.id = id;
      var top = el('div', 'top');
      card = { root: rootEl, pos: el('span', 'pos'), name: el('span', 'name'), flag: el('span', 'turnflag'), state: el('span', 'state'), meter: el('div', 'meter'), fill: el('div', 'fill'), lbl: el('span', 'lbl'), val: el('span', 'val'), res: el('div', 'res'), conds: el('div', 'conds'), health: null };
      [card.pos, card.name, card.flag, card.state].forEach(function (x) { top.appendChild(x); });
      [card.fill, card.lbl, card.val].forEach(function (x) { card.meter.appendChild(x); });
      [top, card.meter, card.res, card.conds].forEach(function (x) { rootEl.appendChild(x); });
      rootEl.addEventListener('animationend', function () { rootEl.classList.remove('hurt'); });
      if (options.extras) { card.bands = el('div', 'bands'); rootEl.appendChild(card.bands); }
      cards.set(id, card);
      return card;
    }
    function updateCard(card, c, pos, active, acted) {
      var state = str(c.state);
      var out = !!state && !/^(active|ready)$/i.test(state);
      card.root.classList.toggle('active', active);
      card.root.classList.toggle('acted', acted);
      card.root.classList.toggle('out', out);
      card.pos.textContent = pos === null ? '\u2013' : String(pos);
      card.name.textContent = str(c.name) || str(c.id);
      card.flag.textContent = active ? 'Turn' : '';
      card.state.textContent = out ? humanize(state) : '';
      var h = health(c);
      card.meter.hidden = !h;
      if (h) {
        var frac = h.max ? Math.max(0, Math.min(1, h.value / h.max)) : h.value > 0 ? 1 : 0;
        card.fill.style.width = (frac * 100).toFixed(1) + '%';
        card.fill.dataset.level = frac > 0.5 ? 'ok' : frac > 0.25 ? 'low' : 'crit';
        card.lbl.textContent = h.label;
        card.val.textContent = h.max !== null ? h.value + ' / ' + h.max : String(h.value);
        if (card.health !== null && h.value < card.health) {
          card.root.classList.remove('hurt');
          void card.root.offsetWidth;
          card.root.classList.add('hurt');
        }
        card.health = h.value;
      }
      fill(card.res, resources(c));
      fill(card.conds, conditions(c).map(function (t) { return el('span', 'chip', t); }));
      if (card.bands) fill(card.bands, bandChips(c, nameOf));
    }


    function render(v, x) {
      view = v;
      exchange = x;
      if (!view) return;
      var byId = new Map();
      list(view.combatants).forEach(function (c) { if (obj(c) && str(c.id)) byId.set(str(c.id), c); });
      var order = list(view.initiative).map(str).filter(function (id) { return byId.has(id); });
      var ranked = order.length;
      byId.forEach(function (_, id) { if (order.indexOf(id) < 0) order.push(id); });
      var active = {};
      if (view.activeCombatantId) active[str(view.activeCombatantId)] = true;
      list(view.openTurns).forEach(function (id) { active[str(id)] = true; });
      var acted = {};
      list(view.actedThisRound).forEach(function (id) { acted[str(id)] = true; });
      var name = function (id) { var c = byId.get(str(id)); return c ? str(c.name) || str(id) : str(id); };
    nameOf = name;

      renderHead(name, active);
      order.forEach(function (id, i) {
        var card = cardFor(id);
        updateCard(card, byId.get(id), i < ranked ? i + 1 : null, !!active[id], !!acted[id]);
        if (cardsEl.children[i] !== card.root) cardsEl.insertBefore(card.root, cardsEl.children[i] || null);
      });
      cards.forEach(function (card, id) { if (!byId.has(id)) { card.root.remove(); cards.delete(id); } });
      renderExchange(name);
    }

    function renderHead(name, active) {
      var spans = headEl.children;
      var system = str(view.system);
      spans[0].textContent = [SYSTEM_NAMES[system] || system, str(view.name)].filter(Boolean).join(' \u00b7 ');
      spans[1].textContent = view.status === 'ended' ? 'Fight over' : num(view.round) ? 'Round ' + view.round : view.status === 'setup' ? 'Setting up' : '';
      var turn = Object.keys(active).map(name).filter(Boolean);
      spans[2].textContent = view.status !== 'ended' && turn.length ? 'Turn: ' + turn.join(', ') : '';
      var pending = obj(view.pending);
      var waiting = pending ? (Array.isArray(pending.awaiting) ? pending.awaiting : [pending.awaiting]).map(name).filter(Boolean) : [];
      spans[3].textContent = waiting.length ? 'Waiting for ' + waiting.join(', ') : '';
    }

    function renderExchange(name) {
      if (!exchange) { exchangeEl.hidden = true; return; }
      var x = exchange;
      var key = JSON.stringify([x.seq, x.effects, x.attackerId, x.targetId, x.sides.map(function (s) { return name(s.who); })]);
      if (key === exchangeKey) return;
      exchangeKey = key;
      var fresh = x.seq !== shownExchangeSeq;
      shownExchangeSeq = x.seq;
      var parts = [];
      var title = el('div', 'xt');
      if (x.attackerId) {
        title.appendChild(el('b', null, name(x.attackerId)));
        if (x.targetId) { title.appendChild(document.createTextNode(' \u2192 ')); title.appendChild(el('b', null, name(x.targetId))); }
        if (x.what) title.appendChild(document.createTextNode(' \u00b7 ' + x.what));
      } else title.textContent = x.what || 'Last roll';
      parts.push(title);
      var sides = el('div', 'sides');
      x.sides.forEach(function (s, i) {
        if (i > 0) sides.appendChild(el('span', 'vs', 'vs'));
        var side = el('div', 'side');
        side.appendChild(el('span', 'who', s.label || name(s.who)));
        if (s.faces) {
          var dice = el('span', 'dice');
          s.faces.forEach(function (f, j) {
            var die = el('i', 'die' + (s.dropped === j ? ' dropped' : ''), f);
            die.style.animationDelay = (i * 0.25 + j * 0.07).toFixed(2) + 's';
            dice.appendChild(die);
          });
          side.appendChild(dice);
        }
        if (s.note) side.appendChild(el('span', 'note', s.note));
        sides.appendChild(side);
      });
      parts.push(sides);
      var result = [x.outcome, x.winnerId ? name(x.winnerId) + ' wins' : ''].concat(x.details).filter(Boolean).join(' \u00b7 ');
      if (result) parts.push(el('div', 'result ' + x.tone, result));
      x.effects.forEach(function (f) { parts.push(el('div', 'fx', name(f.who) + ': ' + f.text)); });
      exchangeEl.classList.remove('fresh');
      fill(exchangeEl, parts);
      exchangeEl.hidden = false;
      if (fresh) { void exchangeEl.offsetWidth; exchangeEl.classList.add('fresh'); }
      exchangeEl.dataset.seq = String(x.seq);
    }

    return { render: render };
  }

  return {
    SYSTEM_NAMES: SYSTEM_NAMES, ARROWS: ARROWS, el: el, fill: fill, num: num, obj: obj, list: list, str: str, humanize: humanize,
    faces: faces, rollFaces: rollFaces, exchangeFrom: exchangeFrom, findRolls: findRolls, exchangeTracker: exchangeTracker, createRenderer: createRenderer,
    renderExtras: renderExtras,
  };
})();
`;
