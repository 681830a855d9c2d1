// api.mjs BASE_URL - tests every endpoint of `ponder serve` and every kind of bad request
// against a running server (started by tests/cli/serve.sh). One PASS/FAIL line per check; the
// exit status is the number of failures (capped at 100).
import { check, failureCount, request, raw, websocket, sleep, waitIdle } from './lib.mjs';

const base = process.argv[2];
if (!base) {
    console.error('usage: node api.mjs BASE_URL');
    process.exit(2);
}
const get = (path, opt) => request(base, 'GET', path, opt);
const post = (path, body, opt = {}) => request(base, 'POST', path, { ...opt, body });
const START_FEN = 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12';

function isError(r, status) {
    return r.status === status && r.json && typeof r.json.error === 'string' && r.json.status === status &&
           /^application\/json/.test(r.headers['content-type'] || '');
}

async function main() {
    // ---- status and the page ----
    let r = await get('/api/status');
    check('api: GET /api/status', r.status === 200 && r.json.workers >= 1 && r.json.max_games >= 1 &&
          r.headers['cache-control'] === 'no-store', r.status, r.text);
    r = await request(base, 'HEAD', '/api/status');
    check('api: HEAD /api/status has no body', r.status === 200 && r.text === '', r.status, r.text);

    r = await get('/');
    check('page: GET / is the HTML page with a CSP', r.status === 200 &&
          /^text\/html/.test(r.headers['content-type']) && r.text.includes('<svg id="board"') &&
          /default-src 'self'/.test(r.headers['content-security-policy'] || ''), r.status, r.headers);
    for (const [path, type] of [['/app.js', 'text/javascript'], ['/style.css', 'text/css'],
                                ['/favicon.svg', 'image/svg+xml'], ['/index.html', 'text/html']]) {
        r = await get(path);
        check(`page: GET ${path} is ${type}`, r.status === 200 && r.headers['content-type'].startsWith(type) &&
              r.text.length > 100, r.status, r.headers['content-type']);
    }
    const etag = (await get('/app.js')).headers.etag;
    r = await get('/app.js', { headers: { 'If-None-Match': etag } });
    check('page: If-None-Match with the ETag gives 304', etag && r.status === 304 && r.text === '', r.status);
    r = await get('/missing.png');
    check('page: unknown file is 404 JSON', isError(r, 404), r.status, r.text);
    r = await post('/', {});
    check('page: POST / is 405 with Allow', isError(r, 405) && r.headers.allow === 'GET, HEAD', r.status, r.headers);

    // ---- a game ----
    r = await post('/api/games', {});
    const g = r.json;
    check('api: POST /api/games creates a game (201, Location)', r.status === 201 && /^[0-9a-f]{16}$/.test(g.id) &&
          r.headers.location === `/api/games/${g.id}`, r.status, r.text);
    check('api: new game is the start position, Black to move, 7 moves',
          g.fen === START_FEN && g.start_fen === START_FEN && g.turn === 'black' && g.ply === 0 &&
          g.legal.length === 7 && g.side === 'black' && g.time === 1 && !g.over && g.result === '*', g);
    const id = g.id;
    r = await get(`/api/games/${id}`);
    check('api: GET /api/games/ID', r.status === 200 && r.json.id === id && r.json.version >= 1, r.status);
    r = await get(`/api/games/${id}/moves`);
    check('api: GET /api/games/ID/moves lists the legal moves with paths',
          r.status === 200 && r.json.turn === 'black' && r.json.moves.length === 7 &&
          r.json.moves.some((m) => m.move === '11-15' && m.path.join() === '11,15' && m.captures.length === 0),
          r.text);

    r = await post(`/api/games/${id}/move`, { move: '11-15' });
    check('api: POST move by text', r.status === 200 && r.json.ply === 1 && r.json.turn === 'white' &&
          r.json.moves[0].move === '11-15', r.status, r.text);
    r = await post(`/api/games/${id}/move`, { path: [22, 18] });
    check('api: POST move by path', r.status === 200 && r.json.ply === 2 && r.json.moves[1].move === '22-18' &&
          r.json.moves[1].fen === r.json.fen, r.status, r.text);
    r = await post(`/api/games/${id}/move`, { move: '15x22' });
    check('api: a capture by text', r.status === 200 && r.json.ply === 3 && r.json.moves[2].move === '15x22',
          r.status, r.text);

    // Illegal and malformed moves.
    r = await post(`/api/games/${id}/move`, { move: '21-17' });
    check('bad: illegal move is 422 (a capture is due)', isError(r, 422) && /illegal/.test(r.json.error), r.status, r.text);
    // A move for the side not on move says whose turn it is (it said "illegal move").
    r = await post(`/api/games/${id}/move`, { move: '9-13' });
    check('bad: a Black move on White\'s turn says White is to move',
          isError(r, 422) && /^White is to move \(square 9 holds a Black piece\)$/.test(r.json.error), r.status, r.text);
    r = await post(`/api/games/${id}/move`, { path: [9, 13] });
    check('bad: a Black path on White\'s turn says White is to move',
          isError(r, 422) && /^White is to move/.test(r.json.error), r.status, r.text);
    r = await post(`/api/games/${id}/move`, { move: 'hello' });
    check('bad: unreadable move is 400', isError(r, 400), r.status, r.text);
    r = await post(`/api/games/${id}/move`, { path: [26, 22] });
    check('bad: illegal path is 422 (a capture is due)', isError(r, 422), r.status, r.text);
    r = await post(`/api/games/${id}/move`, { path: [26, 'x'] });
    check('bad: path with a non-number is 400', isError(r, 400), r.status, r.text);
    r = await post(`/api/games/${id}/move`, { path: [26, 40] });
    check('bad: path with square 40 is 400', isError(r, 400), r.status, r.text);
    r = await post(`/api/games/${id}/move`, { move: '26x17', path: [26, 17] });
    check('bad: both move and path is 400', isError(r, 400), r.status, r.text);
    r = await post(`/api/games/${id}/move`, {});
    check('bad: no move is 400', isError(r, 400), r.status, r.text);
    r = await post(`/api/games/${id}/move`, { move: 17 });
    check('bad: move that is not a string is 400', isError(r, 400), r.status, r.text);

    // The engine, waiting for its move.
    r = await post(`/api/games/${id}/engine`, { depth: 4, time: 10, wait: true });
    let s = r.json;
    check('api: POST engine with wait plays a move', r.status === 200 && s.ply === 4 && s.engine.state === 'idle' &&
          s.engine.depth >= 1 && s.engine.depth <= 4 && Array.isArray(s.engine.pv) && s.engine.pv.length >= 1 &&
          s.engine.side === 'white' && typeof s.engine.score === 'number' && s.engine.eval === -s.engine.score &&
          s.engine.nodes > 0, r.status, r.text);

    // The engine, asynchronously: 202, moves are refused meanwhile, then it plays.
    r = await post(`/api/games/${id}/engine`, { time: 0.3 });
    check('api: POST engine answers 202 at once', r.status === 202 &&
          ['queued', 'thinking'].includes(r.json.engine.state), r.status, r.text);
    r = await post(`/api/games/${id}/move`, { path: s.legal[0].path });
    check('bad: a move while the engine thinks is 409', isError(r, 409), r.status, r.text);
    r = await post(`/api/games/${id}/engine`, { time: 0.3 });
    check('bad: a second engine request while it thinks is 409', isError(r, 409), r.status, r.text);
    s = await waitIdle(base, id);
    check('api: the asynchronous search ends with a move', s.ply === 5 && s.engine.state === 'idle', s);

    r = await post(`/api/games/${id}/stop`);
    check('bad: stop when the engine is idle is 409', isError(r, 409), r.status, r.text);

    // Move now: a long search stopped early plays its move (from the start position, where
    // no move is forced and nothing is solved in a few seconds).
    const fresh = (await post('/api/games', { side: 'both' })).json.id;
    r = await post(`/api/games/${fresh}/engine`, { time: 30 });
    await sleep(300);
    const t0 = Date.now();
    r = await post(`/api/games/${fresh}/stop`);
    s = await waitIdle(base, fresh, 5);
    check('api: POST stop makes the engine move now', r.status === 200 && s.ply === 1 && Date.now() - t0 < 4000,
          r.status, r.text, s.ply);

    // Undo: one ply, two plies, and undo cancelling a search.
    r = await post(`/api/games/${id}/undo`);
    check('api: POST undo takes back one move', r.status === 200 && r.json.ply === 4, r.status, r.text);
    r = await post(`/api/games/${id}/undo`, { plies: 2 });
    check('api: POST undo {plies: 2}', r.status === 200 && r.json.ply === 2 &&
          r.json.moves.map((m) => m.move).join(' ') === '11-15 22-18', r.status, r.text);
    r = await post(`/api/games/${fresh}/engine`, { time: 20 });
    r = await post(`/api/games/${fresh}/undo`);
    await sleep(300);
    s = (await get(`/api/games/${fresh}`)).json;
    check('api: undo while thinking cancels the search and takes back the move before', r.status === 200 &&
          s.ply === 0 && s.engine.state === 'idle', r.text, s);
    r = await post(`/api/games/${id}/undo`, { plies: 0 });
    check('bad: undo of 0 plies is 400', isError(r, 400), r.status, r.text);

    // PDN export.
    r = await get(`/api/games/${id}/pdn`);
    check('api: GET pdn is a PDN attachment', r.status === 200 && /^application\/x-pdn/.test(r.headers['content-type']) &&
          /attachment; filename="ponder-[0-9a-f]{16}\.pdn"/.test(r.headers['content-disposition']) &&
          r.text.includes('[Result "*"]') && /1\. 11-15 22-18 \*/.test(r.text) && !r.text.includes('[FEN'),
          r.status, r.headers, r.text);

    // PATCH settings.
    r = await request(base, 'PATCH', `/api/games/${id}`, { body: { side: 'white', time: 0.5, depth: 3 } });
    check('api: PATCH changes side, time and depth', r.status === 200 && r.json.side === 'white' &&
          r.json.time === 0.5 && r.json.depth === 3, r.status, r.text);
    r = await request(base, 'PATCH', `/api/games/${id}`, { body: { side: 'red' } });
    check('bad: PATCH with side "red" is 400', isError(r, 400), r.status, r.text);

    // ---- positions from FEN, route choice, game over ----
    r = await post('/api/games', { side: 'both', fen: 'B:W15,23,14,22:B10,1' });
    const fenGame = r.json;
    check('api: new game from FEN', r.status === 201 && fenGame.fen === 'B:W14,15,22,23:B1,10' &&
          fenGame.start_fen === fenGame.fen && fenGame.side === 'both', r.status, r.text);
    const routes = fenGame.legal.map((m) => m.move).sort();
    check('api: both capture routes to 26 are listed', routes.join() === '10x17x26,10x19x26', routes);
    r = await post(`/api/games/${fenGame.id}/move`, { path: [10, 19, 26] });
    check('api: the chosen route is played', r.status === 200 && r.json.moves[0].move === '10x19x26' &&
          r.json.fen === 'W:W14,22:B1,26', r.status, r.text);
    r = await get(`/api/games/${fenGame.id}/pdn`);
    check('api: PDN of a set-up game has SetUp and FEN tags', r.status === 200 &&
          r.text.includes('[SetUp "1"]') && r.text.includes('[FEN "B:W14,15,22,23:B1,10"]') &&
          r.text.includes('1. 10x19x26'), r.text);

    r = await post('/api/games', { fen: 'B:W6,7,14,27,29,K15,K17:BK11' });
    const loops = (r.json.legal || []).map((m) => m.move).sort();
    check('api: a king\'s loop lists both directions as routes', r.status === 201 &&
          loops.join() === '11x18x9x2x11,11x2x9x18x11' &&
          r.json.legal[0].captures.join() === r.json.legal[1].captures.join(), r.status, loops);

    r = await post('/api/games', { fen: 'W:W:B1,2' });
    check('api: a side without pieces has lost', r.status === 201 && r.json.over === true &&
          r.json.result === '1-0' && r.json.legal.length === 0, r.text);
    const over = r.json.id;
    r = await post(`/api/games/${over}/engine`, {});
    check('bad: engine move in a finished game is 409', isError(r, 409) && /over/.test(r.json.error), r.status, r.text);
    r = await post(`/api/games/${over}/move`, { move: '1-5' });
    check('bad: a move in a finished game is 409', isError(r, 409), r.status, r.text);
    r = await post(`/api/games/${over}/undo`);
    check('bad: undo at the start is 409', isError(r, 409), r.status, r.text);

    for (const [fen, why] of [['X:W1:B2', 'bad side letter'], ['B:W33:B1', 'square 33'],
                              ['B:W1:B1', 'square on both sides'], ['B:W:B30', 'man on its crowning row'],
                              ['', 'empty']]) {
        r = await post('/api/games', { fen });
        check(`bad: FEN with ${why} is 400`, isError(r, 400) && /FEN/.test(r.json.error), r.status, r.text);
    }
    // The same words as the console, `egdb probe' and `player --fen' (board_reachable).
    r = await post('/api/games', { fen: 'B:W:B30' });
    check('bad: a man on its crowning row is named as everywhere',
          r.json.error === 'bad FEN: a Black man on square 30, its crowning row (write it as a king: K30)', r.text);

    // ---- malformed bodies ----
    const bodies = [
        ['{', 'truncated JSON'], ['[]', 'an array'], ['{"sid":"black"}', 'an unknown field'],
        ['{"time":"1"}', 'a string time'], ['{"time":1000}', 'a time out of range'],
        ['{"time":0}', 'a zero time'], ['{"depth":2.5}', 'a fractional depth'],
        ['{"side":"red"}', 'an unknown side'], ['{"side":"black","side":"white"}', 'a field twice'],
        ['{} x', 'text after the value'], ['{"fen":7}', 'a FEN that is not a string'],
        ['"text"', 'a string'], ['\u0000', 'a NUL byte'],
    ];
    for (const [body, why] of bodies) {
        r = await request(base, 'POST', '/api/games', { body, headers: { 'Content-Type': 'application/json' } });
        check(`bad: body with ${why} is 400`, isError(r, 400), r.status, r.text);
    }
    r = await request(base, 'POST', '/api/games', { body: '{}', headers: { 'Content-Type': 'text/plain' } });
    check('bad: a body that is not JSON by type is 415', isError(r, 415), r.status, r.text);
    r = await request(base, 'POST', '/api/games', { body: 'side=black', headers: {} });
    check('bad: a body without a Content-Type is 415', isError(r, 415), r.status, r.text);
    r = await post('/api/games', { side: 'black', pad: 'x'.repeat(20000) });
    check('bad: a body over 16 KB is 413', isError(r, 413), r.status, r.text);
    let text = await raw(base, 'POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
                               'Content-Length: 10000000\r\n\r\n{"side":');
    check('bad: a declared 10 MB body is refused with 413 at once', /^HTTP\/1\.1 413/.test(text), text.slice(0, 200));
    const chunk = 'x'.repeat(8000);
    text = await raw(base, 'POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
                           'Transfer-Encoding: chunked\r\n\r\n' +
                           `${(8000).toString(16)}\r\n${chunk}\r\n`.repeat(3) + '0\r\n\r\n');
    check('bad: a chunked body over 16 KB is 413', /^HTTP\/1\.1 413/.test(text), text.slice(0, 200));
    text = await raw(base, 'THIS IS NOT HTTP\r\n\r\n', 2000);
    check('bad: a request that is not HTTP gets 400 or a close', text === '' || / 400 Bad Request/.test(text),
          text.slice(0, 200));

    // ---- unknown games, paths and methods ----
    r = await get('/api/games/0123456789abcdef');
    check('bad: unknown game is 404', isError(r, 404), r.status, r.text);
    r = await get('/api/games/not-an-id');
    check('bad: malformed game id is 404', isError(r, 404), r.status, r.text);
    r = await post('/api/games/0123456789abcdef/move', { move: '11-15' });
    check('bad: move in an unknown game is 404', isError(r, 404), r.status, r.text);
    r = await get(`/api/games/${id}/fly`);
    check('bad: unknown action is 404', isError(r, 404), r.status, r.text);
    r = await get('/api/nothing');
    check('bad: unknown API path is 404', isError(r, 404), r.status, r.text);
    r = await request(base, 'PUT', '/api/games', { body: {} });
    check('bad: PUT /api/games is 405 with Allow', isError(r, 405) && r.headers.allow === 'POST', r.status, r.headers);
    r = await request(base, 'DELETE', '/api/status');
    check('bad: DELETE /api/status is 405', isError(r, 405), r.status, r.text);
    r = await get(`/api/games/${id}/move`);
    check('bad: GET on a POST action is 405', isError(r, 405) && r.headers.allow === 'POST', r.status, r.text);
    r = await post(`/api/games/${id}/pdn`, {});
    check('bad: POST on pdn is 405', isError(r, 405), r.status, r.text);

    // ---- guards ----
    r = await post('/api/games', {}, { headers: { Origin: 'http://evil.example' } });
    check('guard: cross-origin POST is 403', isError(r, 403), r.status, r.text);
    r = await post('/api/games', {}, { headers: { Origin: base.replace(/\/$/, '') } });
    check('guard: same-origin POST is accepted', r.status === 201, r.status, r.text);
    r = await get('/api/status', { headers: { Host: 'evil.example' } });
    check('guard: a foreign Host is 403 (DNS rebinding)', isError(r, 403), r.status, r.text);
    r = await get('/api/status', { headers: { Host: `localhost:${new URL(base).port}` } });
    check('guard: Host localhost is accepted', r.status === 200, r.status, r.text);

    // ---- WebSocket ----
    r = await get('/api/live');
    check('ws: plain GET /api/live is 426', isError(r, 426) && r.headers.upgrade === 'websocket', r.status, r.text);
    const ws = await websocket(base, `/api/live?game=${fenGame.id}`);
    check('ws: /api/live?game=ID upgrades', ws.status === 101, ws.status);
    let m = ws.status === 101 ? JSON.parse((await ws.next()) || 'null') : null;
    check('ws: the first message is the game state', m && m.id === fenGame.id && m.ply === 1, m);
    if (ws.status === 101) {
        await post(`/api/games/${fenGame.id}/engine`, { time: 0.2 });
        let last = null;
        for (let i = 0; i < 100; i++) {
            const msg = await ws.next(3000);
            if (!msg) break;
            last = JSON.parse(msg);
            if (last.ply === 2 && last.engine.state === 'idle') break;
        }
        check('ws: the engine move arrives over the socket', last && last.ply === 2 && last.engine.state === 'idle' &&
              last.engine.depth >= 1, last);
        ws.close();
    }
    let bad = await websocket(base, '/api/live?game=0123456789abcdef');
    check('ws: an unknown game is refused', bad.status !== 101, bad.status);
    bad.close();
    bad = await websocket(base, '/api/live');
    check('ws: no game is refused', bad.status !== 101, bad.status);
    bad.close();
    bad = await websocket(base, `/api/live?game=${fenGame.id}`, { Origin: 'http://evil.example' });
    check('ws: a foreign Origin is refused', bad.status !== 101, bad.status);
    bad.close();

    // ---- several games at once; a thinking engine blocks nobody ----
    const many = [];
    for (let i = 0; i < 10; i++) many.push((await post('/api/games', { side: 'both' })).json.id);
    await Promise.all(many.map((gid, i) => post(`/api/games/${gid}/move`, { move: ['9-13', '9-14', '10-14', '10-15', '11-15'][i % 5] })));
    const states = await Promise.all(many.map((gid) => get(`/api/games/${gid}`)));
    check('api: ten games keep their own moves', states.every((x, i) => x.json.ply === 1 &&
          x.json.moves[0].move === ['9-13', '9-14', '10-14', '10-15', '11-15'][i % 5]));
    const workers = (await get('/api/status')).json.workers;
    for (let i = 0; i <= workers; i++) await post(`/api/games/${many[i]}/engine`, { time: 3 });
    r = await get('/api/status');
    check('api: searches beyond the worker count wait in the queue', r.json.thinking + r.json.queued === workers + 1 &&
          r.json.queued >= 1, r.json);
    const t1 = Date.now();
    r = await get(`/api/games/${many[workers + 2]}`);
    const r2 = await post(`/api/games/${many[workers + 2]}/move`, { path: r.json.legal[0].path });
    const took = Date.now() - t1;
    check('api: requests are answered at once while every engine thinks', r.status === 200 && r2.status === 200 && took < 1000,
          `${took} ms`);
    for (let i = 0; i <= workers; i++) await post(`/api/games/${many[i]}/undo`);
    r = await get('/api/status');
    check('api: undo cancels running and queued searches', r.json.thinking + r.json.queued === 0 ||
          (await sleep(500), (await get('/api/status')).json.queued === 0), r.json);

    // ---- delete ----
    r = await request(base, 'DELETE', `/api/games/${many[0]}`);
    check('api: DELETE /api/games/ID is 204', r.status === 204 && r.text === '', r.status, r.text);
    r = await get(`/api/games/${many[0]}`);
    check('api: a deleted game is 404', isError(r, 404), r.status);
    r = await request(base, 'DELETE', `/api/games/${many[0]}`);
    check('bad: deleting it again is 404', isError(r, 404), r.status);

    r = await get('/api/status');
    check('api: the server is still up after every bad request', r.status === 200, r.status);
}

main().then(() => process.exit(Math.min(failureCount(), 100)), (err) => {
    console.log(`FAIL api: exception ${err && err.stack ? err.stack : err}`);
    process.exit(1);
});
