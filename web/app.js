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

// The page is two classic scripts sharing their top-level names: draw.js (the board, the panels,
// the arrows, the slide of a move, the sounds) and this file (the state, the server, the input).

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
