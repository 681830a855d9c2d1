/*
 * draw.js - drawing the Ponder web board from the state app.js keeps: the board (squares, marks,
 * pieces, the slide of the last move, the men it took fading, arrows for the hint and the
 * engine's lines), the evaluation bar and the engine panel for the position shown, the graph,
 * the clocks, the move list, the status line and the controls; and the short tones of Sound,
 * generated with WebAudio. It declares functions only: app.js, loaded after it, holds the state
 * they read and calls render().
 */
'use strict';

// ---- positions ----

// FEN "B:W21,22,K30:B1,2,K9" (ranges like 1-12 allowed) -> {side, pieces: Map sq -> piece}
function parseFen(fen) {
    const pieces = new Map();
    const parts = fen.replace(/\.$/, '').split(':');
    for (const part of parts.slice(1)) {
        const color = part[0] === 'B' ? 'black' : 'white';
        for (let tok of part.slice(1).split(',')) {
            tok = tok.trim();
            if (!tok) continue;
            const king = tok[0] === 'K';
            if (king) tok = tok.slice(1);
            const range = tok.split('-').map(Number);
            const hi = range.length > 1 ? range[1] : range[0];
            for (let sq = range[0]; sq <= hi; sq++) pieces.set(sq, { color, king });
        }
    }
    return { side: parts[0] === 'B' ? 'black' : 'white', pieces };
}

// Top-left corner of square SQ (1-32) in the 800x800 drawing.
function squareXY(sq) {
    const i = sq - 1;
    const row = i >> 2;
    const col = 2 * (i & 3) + (((i >> 2) & 1) ? 0 : 1);
    return { x: (flipped ? 7 - col : col) * 100, y: (flipped ? 7 - row : row) * 100 };
}

function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
}

// ---- animation and sound ----

// Row and column of square SQ with Black's side (1-4) at the top, not flipped.
function rowCol(sq) {
    const row = (sq - 1) >> 2;
    return { row, col: 2 * ((sq - 1) & 3) + (row & 1 ? 0 : 1) };
}

// The squares of a move text ("11x18x25"), and the men it jumps (between its landings).
function movePath(text) {
    return text.split(/[-x]/).map(Number);
}
function jumped(path, capture) {
    const out = [];
    if (!capture) return out;
    for (let i = 1; i < path.length; i++) {
        const a = rowCol(path[i - 1]);
        const b = rowCol(path[i]);
        const row = (a.row + b.row) / 2;
        const col = (a.col + b.col) / 2;
        out.push(row * 4 + Math.floor(col / 2) + 1);
    }
    return out;
}

// Slides the piece of move TEXT (played from position FEN) into the position after PLY.
function startAnimation(id, ply, fen, text) {
    const before = parseFen(fen).pieces;
    const path = movePath(text);
    const pc = before.get(path[0]);
    if (!pc) return;
    const captured = jumped(path, text.includes('x'))
        .filter((sq) => before.has(sq)).map((sq) => ({ sq, ...before.get(sq) }));
    anim = { id, ply, path, captured, start: performance.now(),
             ms: ANIM_HOP_MS * (path.length - 1) + 60 };
}

// A short tone made on the spot (no sound files): a move, a capture, the end of the game.
function sound(kind) {
    if (!$('sound').checked) return;
    try {
        audio = audio || new (window.AudioContext || window.webkitAudioContext)();
        const notes = { move: [[520, 0, 0.07]], capture: [[330, 0, 0.08], [250, 0.09, 0.1]],
                        end: [[523, 0, 0.18], [659, 0.12, 0.18], [784, 0.24, 0.3]] }[kind];
        const t0 = audio.currentTime + 0.01;
        for (const [freq, at, len] of notes) {
            const osc = audio.createOscillator();
            const gain = audio.createGain();
            osc.type = kind === 'end' ? 'sine' : 'triangle';
            osc.frequency.value = freq;
            gain.gain.setValueAtTime(0.0001, t0 + at);
            gain.gain.exponentialRampToValueAtTime(0.25, t0 + at + 0.01);
            gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
            osc.connect(gain).connect(audio.destination);
            osc.start(t0 + at);
            osc.stop(t0 + at + len + 0.02);
        }
        window.ponderSounds = (window.ponderSounds || 0) + 1; // for the browser test
    } catch (e) {
        // No audio output: play silently.
    }
}

// ---- drawing ----

function shownPly() {
    return viewPly === null ? game.ply : viewPly;
}

// The engine's search of the position shown, if that is what it last searched; live, also
// its search for the move it has just played (its thinking about the game).
function shownEngine() {
    const e = game.engine;
    if (e.depth === undefined) return null;
    if (e.ply === shownPly()) return e;
    if (viewPly === null && !e.analysis && e.ply === game.ply - 1) return e;
    return null;
}

function squareCenter(sq) {
    const p = squareXY(sq);
    return [p.x + 50, p.y + 50];
}

// An arrow along the squares of PATH; the head ends short of the last square's centre.
function drawArrow(svg, path, kind, opacity = 1) {
    const pts = path.map(squareCenter);
    const n = pts.length;
    const [x0, y0] = pts[n - 2];
    const [x1, y1] = pts[n - 1];
    const len = Math.hypot(x1 - x0, y1 - y0);
    pts[n - 1] = [x1 - (x1 - x0) * 18 / len, y1 - (y1 - y0) * 18 / len];
    el('polyline', { points: pts.map((p) => p.join(',')).join(' '), class: `arrow arrow-${kind}`,
                     'marker-end': `url(#head-${kind})`, opacity, 'data-arrow': kind,
                     'data-path': path.join('-') }, svg);
}

function drawArrows(svg) {
    const ply = shownPly();
    const e = game.engine;
    if (hint && hint.id === game.id && hint.ply === ply && viewPly === null && e.analysis &&
        e.ply === ply && e.state === 'idle' && e.pv && e.pv.length) {
        drawArrow(svg, movePath(e.pv[0]), 'hint');
    }
    if (!$('arrows').checked || e.depth === undefined) return;
    let pv = null;
    if (e.ply === ply) pv = e.pv;
    else if (viewPly === null && e.ply === ply - 1 && e.pv.length > 1 &&
             game.moves[ply - 1] && game.moves[ply - 1].move === e.pv[0]) pv = e.pv.slice(1);
    if (!pv) return;
    // The other lines' first moves, thin, under the main line.
    if (e.ply === ply && e.lines) {
        for (const l of e.lines.slice(1)) if (l.pv.length) drawArrow(svg, movePath(l.pv[0]), 'alt', 0.8);
    }
    pv.slice(0, 4).forEach((m, i) => {
        drawArrow(svg, movePath(m), i % 2 ? 'reply' : 'pv', 1 - i * 0.2);
    });
}

function shownPosition() {
    if (viewPly === null) return { fen: game.fen, last: game.moves[game.ply - 1] };
    if (viewPly === 0) return { fen: game.start_fen, last: null };
    return { fen: game.moves[viewPly - 1].fen, last: game.moves[viewPly - 1] };
}

function humanToMove() {
    return game && !game.over && viewPly === null && game.engine.state === 'idle' && !busy &&
           (game.side === 'both' || game.side === game.turn);
}

function lastMoveSquares(last) {
    if (!last) return [];
    return last.move.split(/[-x]/).map(Number);
}

function drawBoard() {
    const svg = $('board');
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const defs = el('defs', {}, svg);
    const grad = (id, c1, c2) => {
        const g = el('radialGradient', { id, cx: '40%', cy: '35%', r: '70%' }, defs);
        el('stop', { offset: '0%', 'stop-color': c1 }, g);
        el('stop', { offset: '100%', 'stop-color': c2 }, g);
    };
    grad('g-black', '#555', '#1a1a1a');
    grad('g-white', '#ffffff', '#d9d2c0');
    for (const kind of ['hint', 'pv', 'reply', 'alt']) {
        const m = el('marker', { id: `head-${kind}`, viewBox: '0 0 10 10', refX: 3, refY: 5,
                                 markerWidth: 3.2, markerHeight: 3.2, orient: 'auto' }, defs);
        el('path', { d: 'M0,0 L10,5 L0,10 z', class: `head-${kind}` }, m);
    }

    for (let r = 0; r < 8; r++) {
        for (let c = 0; c < 8; c++) {
            el('rect', { x: c * 100, y: r * 100, width: 100, height: 100,
                         class: (r + c) % 2 ? 'sq-dark' : 'sq-light' }, svg);
        }
    }
    if (!game) return;
    const pos = shownPosition();
    const { pieces } = parseFen(pos.fen);
    const live = viewPly === null;

    // Marks under the pieces: the last move, the selection, destinations, captures.
    for (const sq of lastMoveSquares(pos.last)) {
        const p = squareXY(sq);
        el('rect', { x: p.x, y: p.y, width: 100, height: 100, class: 'mark-last' }, svg);
    }
    if (live && selected) {
        const o = squareXY(selected.hops[0]);
        el('rect', { x: o.x, y: o.y, width: 100, height: 100, class: 'mark-sel' }, svg);
    }
    for (let sq = 1; sq <= 32; sq++) {
        const p = squareXY(sq);
        const t = el('text', { x: p.x + 4, y: p.y + 18, class: 'sq-num' }, svg);
        t.textContent = String(sq);
    }
    if (live && selected) {
        const depth = selected.hops.length;
        const dests = new Set();
        const hops = new Set();
        for (const m of selected.candidates) {
            dests.add(m.path[m.path.length - 1]);
            if ((routeChoice || depth > 1) && m.path.length > depth + 1) hops.add(m.path[depth]);
        }
        for (const sq of dests) {
            const p = squareXY(sq);
            el('circle', { cx: p.x + 50, cy: p.y + 50, r: 22, class: 'mark-dest',
                           'data-mark': 'dest', 'data-sq': sq }, svg);
        }
        for (const sq of hops) {
            const p = squareXY(sq);
            el('circle', { cx: p.x + 50, cy: p.y + 50, r: 40, class: 'mark-hop',
                           'data-mark': 'hop', 'data-sq': sq }, svg);
        }
    }

    // The route under the pointer: its landing squares and the pieces it takes.
    if (live && routeChoice && hoverRoute) {
        for (const sq of hoverRoute.path.slice(1)) {
            const p = squareXY(sq);
            el('circle', { cx: p.x + 50, cy: p.y + 50, r: 16, class: 'mark-dest' }, svg);
        }
    }

    // Pieces; the one that just moved slides along its path, the men it took fade.
    const ply = shownPly();
    const elapsed = anim && anim.id === game.id && anim.ply === ply
        ? performance.now() - anim.start : Infinity;
    const moving = elapsed < anim?.ms ? anim : null;
    const drawPiece = (sq, pc, extra = '') => {
        const p = squareXY(sq);
        const g = el('g', { class: `piece piece-${pc.color}${extra}`,
                            transform: `translate(${p.x + 50} ${p.y + 50})` }, svg);
        el('circle', { cx: 0, cy: 5, r: 38, class: 'shadow' }, g);
        el('circle', { cx: 0, cy: 0, r: 38, class: 'body', fill: `url(#g-${pc.color})` }, g);
        el('circle', { cx: 0, cy: 0, r: 26, class: 'ring' }, g);
        if (pc.king) {
            el('path', { class: 'crown',
                         d: 'M-20 10 L-24 -12 L-11 -1 L0 -18 L11 -1 L24 -12 L20 10 Z' }, g);
        }
        return g;
    };
    for (const [sq, pc] of pieces) {
        const g = drawPiece(sq, pc);
        g.setAttribute('data-piece', sq);
        if (drag && drag.from === sq && drag.moved) {
            g.classList.add('dragging');
            drag.el = g;
            g.setAttribute('transform', `translate(${drag.x} ${drag.y})`);
        }
        if (moving && sq === moving.path[moving.path.length - 1] && g.animate) {
            const frames = moving.path.map((s2) => {
                const [x, y] = squareCenter(s2);
                return { transform: `translate(${x}px, ${y}px)` };
            });
            const a = g.animate(frames, { duration: moving.ms - 60, easing: 'ease-in-out' });
            a.currentTime = Math.min(elapsed, moving.ms - 61);
            g.classList.add('moving');
        }
    }
    if (moving) {
        for (const c of moving.captured) {
            const g = drawPiece(c.sq, c, ' ghost');
            if (g.animate) {
                const a = g.animate([{ opacity: 1 }, { opacity: 0 }],
                                    { duration: moving.ms, fill: 'forwards' });
                a.currentTime = elapsed;
            }
        }
    }
    drawArrows(svg);

    if (live && routeChoice && hoverRoute) {
        for (const sq of hoverRoute.captures) {
            const p = squareXY(sq);
            el('circle', { cx: p.x + 50, cy: p.y + 50, r: 44, class: 'mark-cap' }, svg);
        }
    }

    // Forced captures: ring the pieces that must take.
    if (live && !selected && humanToMove() && game.legal.length && game.legal[0].captures.length) {
        for (const sq of new Set(game.legal.map((m) => m.path[0]))) {
            const p = squareXY(sq);
            el('circle', { cx: p.x + 50, cy: p.y + 50, r: 44, class: 'mark-hop' }, svg);
        }
    }

    // Click targets on every dark square, on top.
    for (let sq = 1; sq <= 32; sq++) {
        const p = squareXY(sq);
        el('rect', { x: p.x, y: p.y, width: 100, height: 100, class: 'hit', 'data-sq': sq },
           svg);
    }
    svg.classList.toggle('review', !live);
    svg.classList.toggle('busy', !humanToMove());
    svg.setAttribute('aria-label', `Checkers board, ${pos.fen}`);
}

// A count with its SI prefix: 721.7k, 2.59M.
function fmtNodes(n) {
    if (n >= 1e9) return `${(n / 1e9).toFixed(2)}G`;
    if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
    if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
    return String(n);
}

// A score in words and for the bar: {text, short, share} (Black's share of the bar).
function scoreText(x) {
    if (x.winner) {
        const who = x.winner === 'black' ? 'Black' : 'White';
        return { text: `${who} wins in ${x.plies_to_end} plies`,
                 short: `${who[0]}#${x.plies_to_end}`, share: x.winner === 'black' ? 1 : 0 };
    }
    const v = x.eval / 100;
    const short = (v > 0 ? '+' : '') + v.toFixed(2);
    return { text: short, short, share: 1 / (1 + Math.exp(-x.eval / 250)) };
}

function drawEngine() {
    const e = game.engine;
    const names = { idle: '', queued: '(waiting for a free engine)', thinking: '(thinking…)' };
    let state = names[e.state] || '';
    if (e.state !== 'idle' && e.job === 'analyse') state = '(analysing…)';
    if (e.state !== 'idle' && e.job === 'graph') state = `(evaluating the game: move ${e.graph_ply})`;
    $('engine-state').textContent = state;
    const shown = shownEngine();
    let line = viewPly === null ? 'No search yet.'
        : 'No analysis of this position yet: tick Analyse.';
    let pv = '';
    let bar = null;
    const list = $('lines-list');
    while (list.firstChild) list.removeChild(list.firstChild);
    if (shown) {
        const sc = scoreText(shown);
        bar = sc;
        const parts = [`depth ${shown.depth}/${shown.seldepth}`,
                       shown.winner ? sc.text : `${sc.text} (Black's view)`,
                       `${fmtNodes(shown.nodes)} nodes`, `${fmtNodes(shown.nps)} n/s`,
                       `${shown.time.toFixed(2)} s`];
        line = parts.join(' · ');
        if (shown.book) line = `opening book · ${sc.text} (Black's view)`;
        // A side with one legal move plays it unsearched (depth 0, the position's static
        // evaluation): say so rather than "depth 0/0 · 0 nodes".
        else if (shown.depth === 0) line = `the only legal move, not searched · ${sc.text} (Black's view)`;
        const who = shown.side === 'black' ? 'Black' : 'White';
        if (shown.ply !== shownPly()) line += ` · before ${who}'s move`;
        pv = shown.pv.length ? `${who}: ${shown.pv.join(' ')}` : '';
        if (shown.lines && shown.lines.length > 1) {
            pv = '';
            shown.lines.forEach((l) => {
                const li = document.createElement('li');
                const ev = document.createElement('b');
                ev.textContent = scoreText(l).short;
                li.appendChild(ev);
                li.appendChild(document.createTextNode(` ${l.pv.slice(0, 10).join(' ')}`));
                list.appendChild(li);
            });
        }
    }
    const known = game.evals[shownPly()];
    if (!bar && known !== null && known !== undefined) {
        bar = scoreText({ eval: known });
        if (Math.abs(known) > 29000) bar = { short: known > 0 ? 'B#' : 'W#', share: known > 0 ? 1 : 0 };
    }
    if (e.error) line += ` · ${e.error}`;
    $('engine-line').textContent = line;
    $('pv').textContent = pv;
    const evalText = bar ? bar.short : '–';
    $('evaltext').textContent = evalText;
    $('evalfill').style.height = `${((bar ? bar.share : 0.5) * 100).toFixed(1)}%`;
    $('evalbar').classList.toggle('flipped', !flipped);
    $('evalbar').title = `Evaluation of the position shown, Black's view: ${evalText}`;
    const db = $('database');
    db.hidden = !(shown && shown.database && shown.ply === shownPly());
    if (!db.hidden) {
        db.textContent = `Endgame database: ${shown.database === 'draw' ? 'a draw'
            : shown.database === 'black wins' ? 'Black wins' : 'White wins'}.`;
    }
}

// The evaluation graph: Black's view of every position evaluated, squashed to ±1.
function drawGraph() {
    const svg = $('graph');
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const n = game.evals.length;
    const W = 600;
    const H = 110;
    const x = (i) => (n > 1 ? (i / (n - 1)) * (W - 10) + 5 : W / 2);
    const y = (v) => H / 2 - (H / 2 - 6) * Math.tanh(v / 300);
    el('rect', { x: 0, y: 0, width: W, height: H / 2, class: 'graph-black' }, svg);
    el('rect', { x: 0, y: H / 2, width: W, height: H / 2, class: 'graph-white' }, svg);
    el('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: 'graph-axis' }, svg);
    let d = '';
    let pen = false;
    let known = 0;
    game.evals.forEach((v, i) => {
        if (v === null) { pen = false; return; }
        known++;
        d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)} `;
        pen = true;
    });
    if (d) el('path', { d, class: 'graph-line' }, svg);
    game.evals.forEach((v, i) => {
        if (v !== null) el('circle', { cx: x(i), cy: y(v), r: 2.6, class: 'graph-dot' }, svg);
    });
    const cur = shownPly();
    el('line', { x1: x(cur), x2: x(cur), y1: 0, y2: H, class: 'graph-cursor' }, svg);
    // Click targets, one column per ply.
    for (let i = 0; i < n; i++) {
        const w = n > 1 ? (W - 10) / (n - 1) : W;
        el('rect', { x: x(i) - w / 2, y: 0, width: w, height: H, class: 'graph-hit',
                     'data-ply': i }, svg);
    }
    svg.dataset.known = String(known);
    $('graph-box').hidden = game.ply === 0; // nothing to draw before the first move
    $('evaluate').disabled = !!busy || game.engine.state !== 'idle' || game.ply === 0;
}

function drawPosition() {
    const fen = shownPosition().fen;
    const box = $('fen-shown');
    if (box.value !== fen) box.value = fen;
    const b = $('ballot-name');
    b.hidden = !game.ballot;
    b.textContent = game.ballot ? `Started from ${game.ballot.replace(/^ballot/, 'ballot')}` : '';
    $('game-title').textContent = game.title ? game.title : 'Moves';
    $('game-title').title = game.title || ''; // the whole title when it is cut short
}

// The clocks, counted down from the server's times since they arrived.
function drawClocks() {
    const c = game.clock;
    const top = $('clock-top');
    const bottom = $('clock-bottom');
    top.hidden = bottom.hidden = !c;
    if (!c) return;
    const since = (performance.now() - clockAt) / 1000;
    const left = (side) => Math.max(0, c[side] - (c.running === side ? since : 0));
    const fmt = (t) => {
        const m = Math.floor(t / 60);
        const sec = t - m * 60;
        return t < 10 ? `${m}:${sec.toFixed(1).padStart(4, '0')}` : `${m}:${String(Math.floor(sec)).padStart(2, '0')}`;
    };
    const sides = flipped ? ['white', 'black'] : ['black', 'white']; // [top, bottom]
    [top, bottom].forEach((row, i) => {
        const side = sides[i];
        const who = (game.side === side || game.side === 'both') ? 'You' : 'Ponder';
        row.querySelector('.who').textContent = `${side === 'black' ? 'Black' : 'White'} · ${who}`;
        const t = left(side);
        row.querySelector('.clock').textContent = fmt(t);
        row.classList.toggle('running', c.running === side);
        row.classList.toggle('low', t < 10);
        row.dataset.side = side;
    });
    // The side to move ran out: the server decides (once per version).
    if (c.running && left(c.running) <= 0 && flagAsked !== game.version) {
        flagAsked = game.version;
        api('GET', `/api/games/${game.id}`).then((s) => applyState(s)).catch(() => {});
    }
}

function drawMoves() {
    const ol = $('moves');
    while (ol.firstChild) ol.removeChild(ol.firstChild);
    const whiteFirst = game.start_fen[0] === 'W';
    const current = viewPly === null ? game.ply : viewPly;
    let li = null;
    game.moves.forEach((m, i) => {
        const ply = i + (whiteFirst ? 1 : 0);
        if (ply % 2 === 0 || i === 0) {
            li = document.createElement('li');
            const num = document.createElement('span');
            num.className = 'num';
            num.textContent = `${Math.floor(ply / 2) + 1}.`;
            li.appendChild(num);
            if (ply % 2 === 1) {
                const dots = document.createElement('span');
                dots.textContent = '…';
                li.appendChild(dots);
            }
            ol.appendChild(li);
        }
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = m.move;
        b.dataset.ply = String(i + 1);
        if (i + 1 === current) b.className = 'current';
        li.appendChild(b);
    });
    const cur = ol.querySelector('button.current');
    if (cur && viewPly !== null) cur.scrollIntoView({ block: 'nearest' });
    else ol.scrollTop = ol.scrollHeight;
    $('result').textContent = game.over ? `${game.result} - ${game.status}` : '';
}

function drawStatus() {
    let text;
    const turn = game.turn === 'black' ? 'Black' : 'White';
    if (game.over) text = `Game over: ${game.status}.`;
    else if (game.engine.state === 'thinking') text = `The engine is thinking for ${turn}…`;
    else if (game.engine.state === 'queued') text = `${turn}: waiting for a free engine…`;
    else if (game.side === 'both') text = `${turn} to move.`;
    else if (game.side === game.turn) text = `Your move (${turn}).`;
    else if (game.side === 'none') text = watching ? `${turn} to move.` : 'Paused: press Watch.';
    else text = `${turn} to move (the engine).`;
    if (game.notice) text += ` ${game.notice}`;
    const e = game.engine;
    if (!game.over && hint && hint.id === game.id && hint.ply === game.ply && e.analysis &&
        e.ply === game.ply && e.state === 'idle' && e.pv && e.pv.length) {
        text += ` Hint: ${e.pv[0]}.`;
    }
    $('status').textContent = text;
}

function drawRoutes() {
    const box = $('routes');
    const list = $('route-list');
    while (list.firstChild) list.removeChild(list.firstChild);
    if (!routeChoice || !selected || viewPly !== null) {
        box.hidden = true;
        return;
    }
    for (const m of selected.candidates) {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = m.move;
        b.addEventListener('click', () => play(m));
        const show = (on) => () => { hoverRoute = on ? m : null; drawBoard(); };
        b.addEventListener('mouseenter', show(true));
        b.addEventListener('mouseleave', show(false));
        b.addEventListener('focus', show(true));
        b.addEventListener('blur', show(false));
        list.appendChild(b);
    }
    box.hidden = false;
}

function drawControls() {
    const idle = game.engine.state === 'idle';
    $('undo').disabled = !!busy || (game.ply === 0 && idle);
    $('stop').disabled = idle;
    $('engine-move').disabled = !!busy || !idle || game.over;
    $('hint').disabled = !!busy || game.over || engineToMove() ||
        (!idle && game.engine.job !== 'analyse');
    const humanPlays = game.side !== 'none';
    $('resign').disabled = !!busy || game.over || !humanPlays;
    $('draw').disabled = !!busy || game.over || !humanPlays;
    $('first').disabled = shownPly() === 0;
    $('last').disabled = viewPly === null;
    $('watch').textContent = watching ? 'Pause' : 'Watch';
    $('watch').classList.toggle('on', watching);
    $('prev').disabled = (viewPly === null ? game.ply : viewPly) === 0;
    $('next').disabled = viewPly === null;
    const pdn = $('pdn');
    pdn.href = `/api/games/${game.id}/pdn`;
    pdn.setAttribute('download', `ponder-${game.id}.pdn`);
    const review = $('review');
    review.hidden = viewPly === null;
    if (viewPly !== null) {
        $('review-text').textContent = viewPly === 0 ? 'The start position'
                                                     : `After ${game.moves[viewPly - 1].move}`;
    }
}

function render() {
    drawBoard();
    if (!game) return;
    drawEngine();
    drawMoves();
    drawStatus();
    drawRoutes();
    drawControls();
    drawGraph();
    drawPosition();
    drawClocks();
}

