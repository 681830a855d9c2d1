/*
 * app.js - the Ponder web board.
 *
 * The server is the only rules authority: this page draws the state it gets (a position as FEN,
 * the legal moves with their full paths, the moves played, the engine's search) and sends back
 * the path of the move the user clicked. One browser tab is one game, remembered across reloads
 * in sessionStorage. State changes arrive over a WebSocket (/api/live); when none can be opened
 * the page polls while the engine thinks.
 *
 * Moving: click a piece, its destinations light up; click one. When several capture routes of
 * that piece end on the chosen square, the routes are offered as buttons, and the next landing
 * squares light up so that the route can also be picked square by square.
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
        game = s;
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
        const t = String(game.time);
        if ([...$('time').options].some((o) => o.value === t)) $('time').value = t;
        if (game.side !== 'none') watching = false;
        render();
        schedulePoll();
        nextEngineMove();
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
        const body = { side: $('side').value, time: Number($('time').value) };
        if (fen !== undefined) body.fen = fen;
        const old = game ? game.id : null;
        busy++;
        try {
            const s = await api('POST', '/api/games', body);
            flipAuto = true;
            watching = s.side === 'none';
            askedVersion = -1;
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

    // ---- drawing ----

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

        // Pieces.
        for (const [sq, pc] of pieces) {
            const p = squareXY(sq);
            const g = el('g', { class: `piece piece-${pc.color}`, 'data-piece': sq,
                                transform: `translate(${p.x + 50} ${p.y + 50})` }, svg);
            el('circle', { cx: 0, cy: 5, r: 38, class: 'shadow' }, g);
            el('circle', { cx: 0, cy: 0, r: 38, class: 'body', fill: `url(#g-${pc.color})` }, g);
            el('circle', { cx: 0, cy: 0, r: 26, class: 'ring' }, g);
            if (pc.king) {
                el('path', { class: 'crown',
                             d: 'M-20 10 L-24 -12 L-11 -1 L0 -18 L11 -1 L24 -12 L20 10 Z' }, g);
            }
        }

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

    function drawEngine() {
        const e = game.engine;
        const names = { idle: '', queued: '(waiting for a free engine)', thinking: '(thinking…)' };
        $('engine-state').textContent = names[e.state] || '';
        let line = 'No search yet.';
        let pv = '';
        let evalText = '0.00';
        let share = 0.5; // Black's share of the bar
        if (e.depth !== undefined) {
            const parts = [`depth ${e.depth}/${e.seldepth}`];
            if (e.winner) {
                parts.push(`${e.winner === 'black' ? 'Black' : 'White'} wins in ${e.plies_to_end} plies`);
                evalText = `${e.winner === 'black' ? 'B' : 'W'}#${e.plies_to_end}`;
                share = e.winner === 'black' ? 1 : 0;
            } else {
                const v = e.eval / 100;
                evalText = (v > 0 ? '+' : '') + v.toFixed(2);
                parts.push(`${evalText} (Black's view)`);
                share = 1 / (1 + Math.exp(-e.eval / 250));
            }
            parts.push(`${fmtNodes(e.nodes)} nodes`, `${fmtNodes(e.nps)}n/s`, `${e.time.toFixed(2)} s`);
            line = parts.join(' · ');
            pv = e.pv.length ? `${e.side === 'black' ? 'Black' : 'White'}: ${e.pv.join(' ')}` : '';
        }
        if (e.error) line += ` · ${e.error}`;
        $('engine-line').textContent = line;
        $('pv').textContent = pv;
        $('evaltext').textContent = evalText;
        $('evalfill').style.height = `${(share * 100).toFixed(1)}%`;
        $('evalbar').classList.toggle('flipped', !flipped);
        $('evalbar').title = `Evaluation, Black's view: ${evalText}`;
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
        $('hint').disabled = !!busy || !idle || game.over;
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
    }

    // ---- input ----

    async function play(m) {
        selected = null;
        routeChoice = false;
        hoverRoute = null;
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
        if (ply === null || ply >= game.ply) viewPly = null;
        else viewPly = Math.max(0, ply);
        selected = null;
        routeChoice = false;
        render();
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

    function bind() {
        $('board').addEventListener('click', (ev) => {
            const t = ev.target.closest('[data-sq]');
            if (t) onSquare(Number(t.dataset.sq));
        });
        $('new').addEventListener('click', () => newGame());
        $('undo').addEventListener('click', undo);
        $('flip').addEventListener('click', () => {
            flipped = !flipped;
            flipAuto = false;
            render();
        });
        $('hint').addEventListener('click', () => {
            if (!game || game.over) return;
            askedVersion = game.version;
            change('POST', `/api/games/${game.id}/engine`, {});
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
            } else if (ev.key === 'Escape') {
                selected = null;
                routeChoice = false;
                render();
            }
        });
    }

    bind();
    render();
    start();
})();
