/*
 * app.js - the Ponder web board.
 *
 * The server is the only rules authority: this page draws the state it gets (a position as FEN,
 * the legal moves with their full paths, the moves played, the engine's search) and sends back
 * the path of the move the user clicked. One browser tab is one game, remembered across reloads
 * in sessionStorage. State changes arrive over a WebSocket (/api/live); when none can be opened
 * the page polls while the engine thinks.
 *
 * Moving: drag a piece to its square, or click a piece (its destinations light up) and click one.
 * When several capture routes of that piece end on the chosen square, the routes are offered as
 * buttons, and the next landing squares light up so that the route can also be picked square by
 * square. A move arriving (or a step forward in review) slides the piece along its path and
 * fades the men it took; with Sound on, WebAudio plays a short generated tone.
 *
 * The engine: a hint (its best move drawn as an arrow, nothing played), its line drawn as arrows,
 * up to three lines when analysing. Everything the engine panel and the evaluation bar show is of
 * the position on the board: when reviewing, that position is analysed (Analyse), and a search of
 * another position is not shown. The server keeps each position's evaluation for the graph.
 *
 * Clocks count down here from the times the server sends; when the side to move reaches zero the
 * page asks the server, which decides the loss on time.
 */
'use strict';

(() => {
    const $ = (id) => document.getElementById(id);
    const SVGNS = 'http://www.w3.org/2000/svg';
    const STORE_KEY = 'ponder.game';

    let game = null;          // the latest state from the server
    let flipped = false;      // true: Black's side (squares 1-4) at the bottom
    let flipAuto = true;      // orientation follows the human's side until the user flips
    let selected = null;      // {hops: [squares clicked so far], candidates: [legal moves]}
    let routeChoice = false;  // several routes end on the clicked square: choose one
    let hoverRoute = null;    // the route whose button the pointer is on (drawn on the board)
    let viewPly = null;       // null: the live position; else the ply shown (0 = start)
    let busy = 0;             // requests in flight that change the game
    let socket = null;        // the live WebSocket, when open
    let socketFails = 0;      // consecutive failures to open one
    let pollTimer = null;
    let watching = false;     // the engine plays itself (side "none")
    let autoTimer = null;     // the pause before the next engine move
    let askedVersion = -1;    // the game version an engine move was last asked for
    let errorTimer = null;
    let anim = null;          // the move sliding: {id, ply, path, color, king, captured, start, ms}
    let lastShown = null;     // {id, ply} of the position drawn last (a step forward animates)
    let drag = null;          // a piece being dragged: {from, el, moved}
    let hint = null;          // {id, ply} of a hint asked for: its arrow shows when it comes
    let analysisAsked = null; // `${id}:${ply}:${lines}:${version}` of the analysis last asked for
    let clockAt = 0;          // performance.now() when game.clock arrived
    let flagAsked = -1;       // the game version a flag fall was reported for
    let audio = null;         // the AudioContext, made at the first sound
    let pdnGames = null;      // {text, games} of the PDN read last
    let skipAnimPly = -1;     // the ply of the user's own move (no slide, the sound played)
    const ANIM_HOP_MS = 190;  // the slide of one step of a move

    // ---- server calls ----

    // Requests under way per game id, and the games to delete once theirs are done (deleting a
    // game while a request about it is still travelling would get that request a 404).
    const inflight = new Map();
    const toDelete = new Set();

    function gameOf(path) {
        const m = /^\/api\/games\/([0-9a-f]{16})/.exec(path);
        return m ? m[1] : null;
    }

    function deleteGame(id) {
        if (inflight.get(id)) {
            toDelete.add(id);
            return;
        }
        toDelete.delete(id);
        fetch(`/api/games/${id}`, { method: 'DELETE', keepalive: true }).catch(() => {});
    }

    async function api(method, path, body) {
        const opt = { method, headers: {} };
        if (body !== undefined) {
            opt.headers['Content-Type'] = 'application/json';
            opt.body = JSON.stringify(body);
        }
        const id = gameOf(path);
        if (id) inflight.set(id, (inflight.get(id) || 0) + 1);
        let res;
        let text;
        try {
            res = await fetch(path, opt);
            text = await res.text();
        } finally {
            if (id) {
                const n = inflight.get(id) - 1;
                if (n > 0) inflight.set(id, n);
                else {
                    inflight.delete(id);
                    if (toDelete.has(id)) deleteGame(id);
                }
            }
        }
        let data = null;
        if (text) {
            try { data = JSON.parse(text); } catch (e) { data = null; }
        }
        if (!res.ok) {
            const err = new Error(data && data.error ? data.error : `HTTP ${res.status}`);
            err.status = res.status;
            throw err;
        }
        return data;
    }

    // A call that changes the game: shows errors, applies the state it returns.
    async function change(method, path, body) {
        busy++;
        render();
        try {
            const state = await api(method, path, body);
            if (state && state.id) applyState(state);
            return state;
        } catch (err) {
            const about = gameOf(path);
            if (about && (!game || about !== game.id)) {
                // About a game this tab has left: nobody needs to hear of it.
            } else if (err.status === 404) {
                showError('This game is no longer on the server (it was evicted or the server ' +
                          'restarted): a new game has started.');
                await newGame();
            } else {
                showError(err.message);
            }
            return null;
        } finally {
            busy--;
            render();
            nextEngineMove();
            nextAnalysis();
        }
    }

    function showError(msg) {
        const el = $('error');
        el.textContent = msg;
        el.hidden = false;
        clearTimeout(errorTimer);
        errorTimer = setTimeout(() => { el.hidden = true; }, 8000);
    }

    function clearError() {
        $('error').hidden = true;
    }

    // ---- game state ----

    // Shows state S of the current game (an older version, or a late answer about a game this
    // tab has left, is ignored); ADOPT makes S's game the current one (new game, reload).
    function applyState(s, adopt = false) {
        if (!adopt && (!game || s.id !== game.id)) return;
        if (game && s.id === game.id && s.version < game.version) return;
        const newId = !game || s.id !== game.id;
        const moved = game && !newId && s.ply !== game.ply;
        if (moved && s.ply === game.ply + 1 && viewPly === null && skipAnimPly !== s.ply) {
            startAnimation(s.id, s.ply, game.fen, s.moves[s.ply - 1].move);
            sound(s.moves[s.ply - 1].move.includes('x') ? 'capture' : 'move');
        }
        if (game && !newId && !game.over && s.over) setTimeout(() => sound('end'), 250);
        game = s;
        clockAt = performance.now();
        if (newId) {
            sessionStorage.setItem(STORE_KEY, s.id);
            viewPly = null;
            openSocket();
        }
        if (newId || moved) {
            selected = null;
            routeChoice = false;
        }
        if (viewPly !== null && viewPly > game.ply) viewPly = null;
        if (flipAuto) flipped = game.side === 'black';
        $('side').value = game.side;
        $('level').value = game.level;
        const t = String(game.time);
        if ([...$('time').options].some((o) => o.value === t)) $('time').value = t;
        if (game.side !== 'none') watching = false;
        render();
        schedulePoll();
        nextEngineMove();
        nextAnalysis();
    }

    function engineToMove() {
        if (!game || game.over || game.engine.state !== 'idle') return false;
        if (game.side === 'both') return false;
        if (game.side === 'none') return watching;
        return game.side !== game.turn;
    }

    // Asks the engine to move when it is its turn (once per game version).
    function nextEngineMove() {
        clearTimeout(autoTimer);
        autoTimer = null;
        if (!engineToMove() || busy || askedVersion === game.version) return;
        const pause = game.side === 'none' ? Number($('delay').value) : 0;
        const version = game.version;
        autoTimer = setTimeout(() => {
            autoTimer = null;
            if (!engineToMove() || game.version !== version || busy) return;
            askedVersion = version;
            change('POST', `/api/games/${game.id}/engine`, {});
        }, pause);
    }

    async function newGame(fen) {
        const body = { side: $('side').value, time: Number($('time').value),
                       level: $('level').value };
        const clock = $('clock').value;
        if (clock) {
            const [base, increment] = clock.split('+').map(Number);
            body.clock = { base, increment };
        }
        if (fen !== undefined && typeof fen === 'object') {
            Object.assign(body, fen); // a game of a PDN file: reviewed, not on the clock
            delete body.clock;
        }
        else if (fen !== undefined) body.fen = fen;
        else if ($('start').value !== '') body.ballot = Number($('start').value);
        const old = game ? game.id : null;
        busy++;
        try {
            const s = await api('POST', '/api/games', body);
            flipAuto = true;
            watching = s.side === 'none';
            askedVersion = -1;
            hint = null;
            anim = null;
            applyState(s, true);
            clearError();
            if (old && old !== s.id) deleteGame(old); // the server would evict it in time
            return true;
        } catch (err) {
            showError(err.message);
            return false;
        } finally {
            busy--;
            render();
            nextEngineMove();
        }
    }

    async function start() {
        const saved = sessionStorage.getItem(STORE_KEY);
        if (saved && /^[0-9a-f]{16}$/.test(saved)) {
            try {
                const s = await api('GET', `/api/games/${saved}`);
                applyState(s, true);
                return;
            } catch (err) {
                sessionStorage.removeItem(STORE_KEY);
            }
        }
        await newGame();
    }

    // ---- live updates ----

    function openSocket() {
        if (socket) {
            socket.onclose = null;
            socket.close();
            socket = null;
        }
        if (!game || !('WebSocket' in window) || socketFails >= 3) return;
        const id = game.id;
        const proto = location.protocol === 'https:' ? 'wss://' : 'ws://';
        const ws = new WebSocket(`${proto}${location.host}/api/live?game=${id}`);
        ws.onopen = () => { socketFails = 0; socket = ws; schedulePoll(); };
        ws.onmessage = (ev) => {
            let s;
            try { s = JSON.parse(ev.data); } catch (e) { return; }
            if (s && s.id === id && game && game.id === id) applyState(s);
        };
        ws.onclose = () => {
            if (socket === ws) socket = null;
            socketFails++;
            schedulePoll();
            // Try again later (the server may have restarted or been busy).
            setTimeout(() => { if (game && game.id === id && !socket) openSocket(); }, 3000);
        };
    }

    // Without a WebSocket, poll while the engine thinks.
    function schedulePoll() {
        clearTimeout(pollTimer);
        pollTimer = null;
        if (socket || !game || game.engine.state === 'idle') return;
        pollTimer = setTimeout(async () => {
            pollTimer = null;
            if (socket || !game) return;
            try {
                applyState(await api('GET', `/api/games/${game.id}`));
            } catch (err) {
                schedulePoll();
            }
        }, 250);
    }

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
            const t = el('text', { x: p.x + 5, y: p.y + 19, class: 'sq-num' }, svg);
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

    function fmtNodes(n) {
        if (n >= 1e9) return `${(n / 1e9).toFixed(2)} G`;
        if (n >= 1e6) return `${(n / 1e6).toFixed(2)} M`;
        if (n >= 1e3) return `${(n / 1e3).toFixed(1)} k`;
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
                           `${fmtNodes(shown.nodes)} nodes`, `${fmtNodes(shown.nps)}n/s`,
                           `${shown.time.toFixed(2)} s`];
            line = parts.join(' · ');
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
        $('hint').disabled = !!busy || game.over || (!idle && game.engine.job !== 'analyse');
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

    // Analysis of the position shown, when Analyse is ticked and the engine is not needed to
    // move: asked once per position and setting; a newer request replaces a running analysis.
    function nextAnalysis() {
        if (!game || !$('analyse').checked || busy || engineToMove()) return;
        const e = game.engine;
        if (e.state !== 'idle' && e.job !== 'analyse') return;
        const ply = shownPly();
        const lines = Number($('lines').value);
        const key = `${game.id}:${ply}:${lines}:${game.ply}`;
        if (analysisAsked === key) return;
        analysisAsked = key;
        change('POST', `/api/games/${game.id}/analyse`,
               { ply, lines, time: Math.max(2, game.time) * lines });
    }

    // ---- input ----

    async function play(m) {
        selected = null;
        routeChoice = false;
        hoverRoute = null;
        hint = null;
        if (drag && drag.moved) {
            // A piece dropped on its square needs no slide, only the sound.
            skipAnimPly = game.ply + 1;
            sound(m.captures.length ? 'capture' : 'move');
        }
        drag = null;
        await change('POST', `/api/games/${game.id}/move`, { path: m.path });
    }

    function onSquare(sq) {
        if (!humanToMove()) return;
        if (selected) {
            const depth = selected.hops.length;
            const ending = selected.candidates.filter(
                (m) => m.path.length > depth && m.path[m.path.length - 1] === sq);
            const through = selected.candidates.filter(
                (m) => m.path.length > depth + 1 && m.path[depth] === sq);
            if (ending.length === 1) {
                play(ending[0]);
                return;
            }
            if (ending.length > 1) { // several routes end here: choose
                selected.candidates = ending;
                routeChoice = true;
                render();
                return;
            }
            if (through.length) { // a landing square on the way: narrow the routes
                selected.hops.push(sq);
                selected.candidates = through;
                if (through.length === 1) {
                    play(through[0]);
                    return;
                }
                render();
                return;
            }
        }
        const own = game.legal.filter((m) => m.path[0] === sq);
        const again = selected && selected.hops.length === 1 && selected.hops[0] === sq;
        selected = own.length && !again ? { hops: [sq], candidates: own } : null;
        routeChoice = false;
        render();
    }

    function review(ply) {
        if (!game) return;
        const from = shownPly();
        if (ply === null || ply >= game.ply) viewPly = null;
        else viewPly = Math.max(0, ply);
        const to = shownPly();
        if (to === from + 1 && to >= 1) {
            const before = from === 0 ? game.start_fen : game.moves[from - 1].fen;
            startAnimation(game.id, to, before, game.moves[to - 1].move);
            sound(game.moves[to - 1].move.includes('x') ? 'capture' : 'move');
        }
        selected = null;
        routeChoice = false;
        render();
        nextAnalysis();
    }

    function undo() {
        if (!game) return;
        watching = false;
        let plies = 1;
        // Against the engine, take back its reply too so that it is the human's turn again.
        if ((game.side === 'black' || game.side === 'white') && game.engine.state === 'idle' &&
            game.turn === game.side && game.ply >= 2) {
            plies = 2;
        }
        askedVersion = -1;
        viewPly = null;
        change('POST', `/api/games/${game.id}/undo`, { plies });
    }

    // The board point (0-800) under a pointer event.
    function boardPoint(ev) {
        const r = $('board').getBoundingClientRect();
        return { x: (ev.clientX - r.left) * 800 / r.width, y: (ev.clientY - r.top) * 800 / r.height };
    }

    function squareAt(pt) {
        for (let sq = 1; sq <= 32; sq++) {
            const p = squareXY(sq);
            if (pt.x >= p.x && pt.x < p.x + 100 && pt.y >= p.y && pt.y < p.y + 100) return sq;
        }
        return null;
    }

    // Pointer input: a press selects (or plays on a lit square, as a click does); dragging a
    // selected piece and letting go on another square plays there.
    function bindPointer() {
        const board = $('board');
        board.addEventListener('pointerdown', (ev) => {
            if (ev.button !== 0 || !game) return;
            const sq = squareAt(boardPoint(ev));
            if (!sq) return;
            const again = selected && selected.hops.length === 1 && selected.hops[0] === sq;
            if (!again) onSquare(sq);
            if (selected && selected.hops[0] === sq && humanToMove()) {
                const pt = boardPoint(ev);
                drag = { from: sq, x: pt.x, y: pt.y, moved: false, again };
                try { board.setPointerCapture(ev.pointerId); } catch (e) { /* synthetic events */ }
            }
            ev.preventDefault();
        });
        board.addEventListener('pointermove', (ev) => {
            if (!drag) return;
            const pt = boardPoint(ev);
            const c = squareCenter(drag.from);
            if (!drag.moved && Math.hypot(pt.x - c[0], pt.y - c[1]) < 25) return;
            drag.moved = true;
            drag.x = pt.x;
            drag.y = pt.y;
            if (drag.el && drag.el.isConnected) {
                drag.el.setAttribute('transform', `translate(${pt.x} ${pt.y})`);
                drag.el.classList.add('dragging');
            } else drawBoard();
        });
        const end = (ev) => {
            if (!drag) return;
            const d = drag;
            const sq = ev.type === 'pointerup' ? squareAt(boardPoint(ev)) : null;
            if (d.moved && sq && sq !== d.from) {
                onSquare(sq);
            } else if (!d.moved && d.again) {
                onSquare(sq || d.from); // a second click on the selected piece drops it
            }
            drag = null;
            drawBoard();
        };
        board.addEventListener('pointerup', end);
        board.addEventListener('pointercancel', end);
    }

    async function readPdn(text) {
        $('pdn-errors').hidden = true;
        try {
            const r = await api('POST', '/api/pdn', { pdn: text });
            pdnGames = { text, games: r.games };
            const sel = $('pdn-games');
            while (sel.firstChild) sel.removeChild(sel.firstChild);
            for (const g of r.games) {
                const o = document.createElement('option');
                o.value = String(g.game);
                o.textContent = `${g.game}. ${g.black || '?'} - ${g.white || '?'}` +
                    `${g.event ? `, ${g.event}` : ''} (${g.result}, ${g.moves} moves)`;
                sel.appendChild(o);
            }
            $('pdn-pick').hidden = false;
            if (r.errors.length) {
                $('pdn-errors').textContent = `Skipped: ${r.errors.slice(0, 3).join('; ')}` +
                    (r.errors.length > 3 ? ` and ${r.errors.length - 3} more` : '');
                $('pdn-errors').hidden = false;
            }
            if (r.games.length === 1) await openPdnGame();
        } catch (err) {
            $('pdn-pick').hidden = true;
            showError(err.message);
        }
    }

    // Opens the chosen game of the PDN read: two players' game (nobody's engine), shown from
    // its start, evaluated for the graph, analysed as it is stepped through.
    async function openPdnGame() {
        if (!pdnGames) return;
        $('side').value = 'both';
        const ok = await newGame({ pdn: pdnGames.text, game: Number($('pdn-games').value), side: 'both' });
        if (!ok) return;
        watching = false;
        viewPly = game.ply > 0 ? 0 : null;
        // The graph first; the analysis of the position shown follows when it is done.
        if (game.ply > 0) await change('POST', `/api/games/${game.id}/graph`, {});
        $('analyse').checked = true;
        analysisAsked = null;
        review(0);
    }

    async function copyFen() {
        const text = $('fen-shown').value;
        let ok = false;
        try {
            await navigator.clipboard.writeText(text);
            ok = true;
        } catch (e) {
            $('fen-shown').select();
            ok = document.execCommand && document.execCommand('copy');
        }
        $('copy-fen').textContent = ok ? 'Copied' : 'Select and copy';
        setTimeout(() => { $('copy-fen').textContent = 'Copy FEN'; }, 1500);
    }

    function bind() {
        bindPointer();
        $('engine-move').addEventListener('click', () => {
            if (!game || game.over) return;
            askedVersion = game.version;
            change('POST', `/api/games/${game.id}/engine`, {});
        });
        $('hint').addEventListener('click', () => {
            if (!game || game.over) return;
            review(null);
            hint = { id: game.id, ply: game.ply };
            analysisAsked = null;
            change('POST', `/api/games/${game.id}/analyse`, { lines: 1, time: game.time });
        });
        $('resign').addEventListener('click', () => {
            if (game && confirmOr('Resign this game?')) change('POST', `/api/games/${game.id}/resign`);
        });
        $('draw').addEventListener('click', () => {
            if (game) change('POST', `/api/games/${game.id}/draw`);
        });
        $('level').addEventListener('change', () => {
            if (game) change('PATCH', `/api/games/${game.id}`, { level: $('level').value });
        });
        $('analyse').addEventListener('change', () => { analysisAsked = null; nextAnalysis(); render(); });
        $('lines').addEventListener('change', () => nextAnalysis());
        $('arrows').addEventListener('change', render);
        $('sound').checked = localStorage.getItem('ponder.sound') === 'on';
        $('sound').addEventListener('change', () => {
            localStorage.setItem('ponder.sound', $('sound').checked ? 'on' : 'off');
            if ($('sound').checked) sound('move');
        });
        $('copy-fen').addEventListener('click', copyFen);
        $('evaluate').addEventListener('click', () => {
            if (game) change('POST', `/api/games/${game.id}/graph`, {});
        });
        $('graph').addEventListener('click', (ev) => {
            const t = ev.target.closest('[data-ply]');
            if (t) review(Number(t.dataset.ply));
        });
        $('pdn-read').addEventListener('click', () => {
            const text = $('pdn-text').value;
            if (!text.trim()) showError('Paste a PDN game first, or choose a file.');
            else readPdn(text);
        });
        $('pdn-file').addEventListener('change', async () => {
            const f = $('pdn-file').files[0];
            if (!f) return;
            if (f.size > 4 * 1024 * 1024) {
                showError(`${f.name} is too large (${(f.size / 1048576).toFixed(1)} MB; at most 4 MB).`);
                return;
            }
            const text = await f.text();
            $('pdn-text').value = text.length > 20000 ? `${text.slice(0, 20000)}…` : text;
            readPdn(text);
        });
        $('pdn-open').addEventListener('click', openPdnGame);
        $('first').addEventListener('click', () => review(0));
        $('last').addEventListener('click', () => review(null));
        setInterval(() => { if (game && game.clock && game.clock.running) drawClocks(); }, 100);
        $('new').addEventListener('click', () => newGame());
        $('undo').addEventListener('click', undo);
        $('flip').addEventListener('click', () => {
            flipped = !flipped;
            flipAuto = false;
            render();
        });
        $('stop').addEventListener('click', () => change('POST', `/api/games/${game.id}/stop`));
        $('watch').addEventListener('click', async () => {
            if (!game) return;
            watching = !watching;
            if (watching && game.side !== 'none') {
                await change('PATCH', `/api/games/${game.id}`, { side: 'none' });
                watching = true;
            }
            render();
            nextEngineMove();
        });
        $('side').addEventListener('change', () => {
            if (!game) return;
            flipAuto = true;
            watching = $('side').value === 'none';
            change('PATCH', `/api/games/${game.id}`, { side: $('side').value });
        });
        $('time').addEventListener('change', () => {
            if (game) change('PATCH', `/api/games/${game.id}`, { time: Number($('time').value) });
        });
        $('delay').addEventListener('change', nextEngineMove);
        $('fen-form').addEventListener('submit', async (ev) => {
            ev.preventDefault();
            const fen = $('fen').value.trim();
            if (!fen) {
                showError('Type a position first, e.g. B:W21,22,K30:B1,2,K9');
                return;
            }
            if (await newGame(fen)) $('fen').value = '';
        });
        $('moves').addEventListener('click', (ev) => {
            const b = ev.target.closest('button[data-ply]');
            if (b) review(Number(b.dataset.ply));
        });
        $('prev').addEventListener('click', () => review((viewPly === null ? game.ply : viewPly) - 1));
        $('next').addEventListener('click', () => review(viewPly === null ? null : viewPly + 1));
        $('review-live').addEventListener('click', () => review(null));
        document.addEventListener('keydown', (ev) => {
            if (!game || ev.target.closest('input, select, textarea')) return;
            if (ev.key === 'ArrowLeft') {
                review((viewPly === null ? game.ply : viewPly) - 1);
                ev.preventDefault();
            } else if (ev.key === 'ArrowRight') {
                review(viewPly === null ? null : viewPly + 1);
                ev.preventDefault();
            } else if (ev.key === 'Home') {
                review(0);
                ev.preventDefault();
            } else if (ev.key === 'End') {
                review(null);
                ev.preventDefault();
            } else if (ev.key === 'Escape') {
                selected = null;
                routeChoice = false;
                render();
            }
        });
    }

    // A confirmation that a test (or a page without dialogs) can answer.
    function confirmOr(question) {
        try { return window.confirm(question); } catch (e) { return true; }
    }

    bind();
    render();
    start();
})();
