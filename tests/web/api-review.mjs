// api-review.mjs BASE_URL - the play and review endpoints of `ponder serve` against a running
// server (started by tests/cli/serve.sh with a 3-piece endgame database): strength levels,
// clocks and loss on time, resigning, draw offers, analysis with up to three lines (multi-PV),
// the evaluation graph, PDN files with several games, ballots, the databases' verdict, and every
// bad request to them (4xx JSON errors that name what was wrong). One PASS/FAIL line per check.
import { check, failureCount, request, sleep, waitIdle } from './lib.mjs';

const base = process.argv[2];
if (!base) {
    console.error('usage: node api-review.mjs BASE_URL');
    process.exit(2);
}
const get = (path) => request(base, 'GET', path);
const post = (path, body) => request(base, 'POST', path, { body });
const patch = (path, body) => request(base, 'PATCH', path, { body });

function isError(r, status, pattern) {
    return r.status === status && r.json && typeof r.json.error === 'string' && r.json.status === status &&
           (!pattern || pattern.test(r.json.error));
}

const PDN = `[Event "Club night"]
[Black "Alice"]
[White "Bob"]
[Result "1-0"]
1. 11-15 22-18 2. 15x22 25x18 3. 8-11 29-25 4. 4-8 1-0

[Event "Second"]
[Black "Carol"]
[White "Dan"]
1. 9-14 22-18 *

[Event "Broken"]
1. 11-15 33-19 *
`;

async function main() {
    // ---- levels ----
    let r = await post('/api/games', { side: 'white', level: 'beginner' });
    check('review: a new game takes a level', r.status === 201 && r.json.level === 'beginner', r.text);
    const weak = r.json.id;
    r = await post(`/api/games/${weak}/engine`, { wait: true });
    check('review: the beginner level plays a move, at its shallow depth', r.status === 200 && r.json.ply === 1 &&
          r.json.engine.depth <= 2, r.json && r.json.engine);
    r = await patch(`/api/games/${weak}`, { level: 'expert' });
    check('review: PATCH changes the level', r.status === 200 && r.json.level === 'expert', r.text);
    r = await post('/api/games', { level: 'grandmaster' });
    check('bad: an unknown level is 400 and lists the levels', isError(r, 400, /beginner.*full/), r.text);
    r = await post('/api/games', { level: 3 });
    check('bad: a level that is not a string is 400', isError(r, 400, /level/), r.text);

    // Weak levels vary: twenty beginner moves from the start are not all the same.
    const seen = new Set();
    for (let i = 0; i < 12; i++) {
        const g = (await post('/api/games', { side: 'white', level: 'beginner' })).json.id;
        const m = await post(`/api/games/${g}/engine`, { wait: true });
        if (m.status === 200) seen.add(m.json.moves[0].move);
        await request(base, 'DELETE', `/api/games/${g}`);
    }
    check('review: the beginner level picks among near-best moves', seen.size >= 2, [...seen]);

    // ---- clocks ----
    r = await post('/api/games', { side: 'black', clock: { base: 60, increment: 2 } });
    const timed = r.json.id;
    check('review: a game on the clock shows both times, Black running', r.status === 201 &&
          r.json.clock.base === 60 && r.json.clock.increment === 2 && r.json.clock.running === 'black' &&
          r.json.clock.white === 60 && r.json.clock.black <= 60, r.json && r.json.clock);
    await sleep(300);
    r = await post(`/api/games/${timed}/move`, { move: '11-15' });
    check('review: a move charges the mover and adds the increment', r.status === 200 &&
          r.json.clock.black > 61 && r.json.clock.black < 62 && r.json.clock.running === 'white', r.json && r.json.clock);
    r = await post(`/api/games/${timed}/engine`, { wait: true });
    // The search gets the clock (59.5 s in hand, 2 s a move): timeman's optimum is about 3.9 s,
    // its soft deadline 70% of that stretched at most 3 times, its hard one 5 optimums (19.5 s).
    check('review: the engine moves on the clock, within a share of its time', r.status === 200 && r.json.ply === 2 &&
          r.json.engine.time > 1 && r.json.engine.time < 19.5 && r.json.clock.running === 'black', r.json && r.json.engine);
    r = await patch(`/api/games/${timed}`, { clock: { base: 1 } });
    check('review: PATCH sets a new clock', r.status === 200 && r.json.clock.base === 1 && r.json.clock.increment === 0, r.text);
    await sleep(1300);
    r = await get(`/api/games/${timed}`);
    check('review: the side to move loses on time', r.json.over && r.json.result === '0-1' &&
          /Black lost on time/.test(r.json.status) && r.json.clock.running === null && r.json.legal.length === 0, r.json);
    r = await post(`/api/games/${timed}/move`, { move: '15-19' });
    check('bad: no move after the flag fell (409)', isError(r, 409, /over.*time/), r.text);
    r = await get(`/api/games/${timed}/pdn`);
    check('review: the PDN records the loss on time', r.status === 200 && /0-1\s*$/.test(r.text.trim()), r.text);
    r = await patch(`/api/games/${timed}`, { clock: null });
    check('review: clock null takes the clock away', r.status === 200 && r.json.clock === null, r.text);
    for (const [clock, pattern] of [[{ base: 0 }, /clock.base/], [{ base: 60, increment: -1 }, /clock.increment/],
                                    [{ increment: 5 }, /clock.base/], [{ base: 60, extra: 1 }, /clock.extra/],
                                    [60, /clock/], [{ base: '60' }, /clock.base/]]) {
        r = await post('/api/games', { clock });
        check(`bad: clock ${JSON.stringify(clock)} is 400`, isError(r, 400, pattern), r.text);
    }

    // ---- resigning and draws ----
    r = await post('/api/games', { side: 'black' });
    const res = r.json.id;
    r = await post(`/api/games/${res}/resign`, {});
    check('review: the human resigns', r.status === 200 && r.json.over && r.json.result === '0-1' &&
          r.json.status === 'Black resigned', r.text);
    r = await post(`/api/games/${res}/resign`, {});
    check('bad: resigning a finished game is 409', isError(r, 409, /over/), r.text);
    r = await post(`/api/games/${res}/undo`, {});
    check('review: undo takes a resignation back', r.status === 200 && !r.json.over && r.json.result === '*', r.text);
    r = await post(`/api/games/${res}/resign`, { side: 'white' });
    check('bad: resign takes no fields', isError(r, 400, /unknown field/), r.text);
    r = await post('/api/games', { side: 'none' });
    r = await post(`/api/games/${r.json.id}/draw`, {});
    check('bad: no draw offer when the engine plays both sides (409)', isError(r, 409, /no player/), r.text);

    // The engine (White) far behind accepts; far ahead declines, saying why.
    r = await post('/api/games', { side: 'black', fen: 'B:W32:B1,2,3,5,6,K20' });
    const behind = r.json.id;
    r = await post(`/api/games/${behind}/draw`, {});
    check('review: no draw before the engine has judged the position', r.status === 200 && !r.json.over &&
          /not judged/.test(r.json.notice), r.text);
    await post(`/api/games/${behind}/move`, { move: '20-24' });
    await post(`/api/games/${behind}/engine`, { wait: true, time: 0.2 });
    r = await post(`/api/games/${behind}/draw`, {});
    check('review: the engine, far behind, accepts a draw', r.status === 200 && r.json.over &&
          r.json.result === '1/2-1/2' && /agreement/.test(r.json.status), r.json && [r.json.status, r.json.evals]);
    r = await post('/api/games', { side: 'black', fen: 'B:W25,26,27,K10,K11:B1' });
    const ahead = r.json.id;
    await post(`/api/games/${ahead}/move`, { path: r.json.legal[0].path });
    await post(`/api/games/${ahead}/engine`, { wait: true, time: 0.2 });
    r = await post(`/api/games/${ahead}/draw`, {});
    check('review: the engine, far ahead, declines and says why', r.status === 200 && !r.json.over &&
          /declines.*ahead/.test(r.json.notice), r.json && r.json.notice);

    // ---- analysis: 1-3 lines of any ply, nothing played ----
    r = await post('/api/games', { side: 'both' });
    const an = r.json.id;
    await post(`/api/games/${an}/move`, { move: '11-15' });
    await post(`/api/games/${an}/move`, { move: '23-19' });
    r = await post(`/api/games/${an}/analyse`, { lines: 3, time: 0.6 });
    check('review: analyse is 202 and the engine analyses', r.status === 202 && r.json.engine.job === 'analyse', r.text);
    let st = await waitIdle(base, an, 15);
    const lines = st.engine.lines || [];
    check('review: three lines, each a different first move, nothing played', st.ply === 2 && st.engine.ply === 2 &&
          st.engine.analysis === true && lines.length === 3 &&
          new Set(lines.map((l) => l.pv[0])).size === 3 && lines.every((l) => typeof l.eval === 'number'),
          st.engine);
    check('review: the analysed position has its evaluation', st.evals.length === 3 && st.evals[2] === st.engine.eval,
          st.evals, st.engine.eval);
    r = await post(`/api/games/${an}/analyse`, { ply: 0, lines: 1, time: 0.3 });
    st = await waitIdle(base, an, 15);
    check('review: an earlier ply is analysed from its own position', r.status === 202 && st.engine.ply === 0 &&
          st.engine.side === 'black' && st.engine.lines.length === 1 && st.ply === 2 && st.evals[0] !== null, st.engine);
    r = await post(`/api/games/${an}/analyse`, { time: 5 });
    r = await post(`/api/games/${an}/move`, { move: '8-11' });
    check('review: a move cancels an analysis rather than waiting for it', r.status === 200 && r.json.ply === 3, r.text);
    r = await post(`/api/games/${an}/analyse`, { ply: 5 });
    check('bad: analysing a ply past the game is 400', isError(r, 400, /ply.*0 to 3/), r.text);
    r = await post(`/api/games/${an}/analyse`, { lines: 4 });
    check('bad: four lines is 400', isError(r, 400, /lines.*1 to 3/), r.text);
    r = await post(`/api/games/${an}/analyse`, { lines: 1.5 });
    check('bad: a fractional line count is 400', isError(r, 400, /lines/), r.text);
    r = await post(`/api/games/${an}/analyse`, { time: 0 });
    check('bad: analysis time 0 is 400', isError(r, 400, /time/), r.text);
    r = await post(`/api/games/${an}/analyse`, { colour: 'red' });
    check('bad: an unknown analysis field is 400', isError(r, 400, /unknown field .colour/), r.text);
    r = await get(`/api/games/${an}/analyse`);
    check('bad: GET analyse is 405', isError(r, 405) && r.headers.allow === 'POST', r.status);

    // ---- the graph: every position evaluated ----
    r = await post(`/api/games/${an}/graph`, { time: 0.05 });
    check('review: graph is 202', r.status === 202 && r.json.engine.job === 'graph', r.text);
    r = await post(`/api/games/${an}/graph`, {});
    check('bad: a second graph while one runs is 409', isError(r, 409, /busy/) ||
          (r.status === 202), r.text); // it may already have finished on a fast machine
    st = await waitIdle(base, an, 15);
    check('review: the graph evaluates every position', st.evals.length === 4 && st.evals.every((v) => typeof v === 'number'),
          st.evals);
    r = await post(`/api/games/${an}/graph`, { depth: 0 });
    check('bad: graph depth 0 is 400', isError(r, 400, /depth/), r.text);
    r = await post(`/api/games/${an}/graph`, { time: 6 });
    check('bad: graph time beyond 5 s is 400', isError(r, 400, /time/), r.text);

    // ---- PDN files ----
    r = await post('/api/pdn', { pdn: PDN });
    check('review: a PDN file lists its games and the one it cannot read', r.status === 200 && r.json.games.length === 2 &&
          r.json.games[0].black === 'Alice' && r.json.games[0].white === 'Bob' && r.json.games[0].result === '1-0' &&
          r.json.games[0].moves === 7 && r.json.games[1].event === 'Second' && r.json.errors.length === 1 &&
          /game 3.*33/.test(r.json.errors[0]), r.text);
    r = await post('/api/games', { pdn: PDN, game: 1, side: 'both' });
    check('review: a game opened from PDN has its moves, title and result', r.status === 201 && r.json.ply === 7 &&
          r.json.title === 'Alice - Bob, Club night' && r.json.pdn_result === '1-0' && r.json.moves[3].move === '25x18', r.text);
    r = await post('/api/games', { pdn: PDN, game: 2 });
    check('review: the second game of the file', r.status === 201 && r.json.ply === 2 && /Carol - Dan/.test(r.json.title), r.text);
    r = await post('/api/games', { pdn: PDN, game: 3 });
    check('bad: a game that cannot be read is 422 with the place', isError(r, 422, /game 3.*line 13/), r.text);
    r = await post('/api/games', { pdn: PDN, game: 9 });
    check('bad: a game past the end is 422', isError(r, 422, /no game 9/), r.text);
    // A man on its own crowning row in a FEN tag is refused as in the fen field, in the same words.
    const crowned = '[FEN "B:W1,21:B5,9"]\n1. 9-13 *';
    r = await post('/api/games', { pdn: crowned });
    check('bad: a PDN FEN tag with a man on its crowning row is 422 with the words and the place',
          isError(r, 422) && r.json.error === 'game 1 of the PDN cannot be read: bad FEN tag: a White man on ' +
          'square 1, its crowning row (write it as a king: K1) at line 1, column 10', r.text);
    r = await post('/api/pdn', { pdn: crowned });
    check('bad: /api/pdn says the same of that game', isError(r, 422,
          /^no game could be read from the PDN: game 1: bad FEN tag: a White man on square 1, its crowning row \(write it as a king: K1\) at line 1, column 10$/),
          r.text);
    r = await post('/api/games', { game: 1 });
    check('bad: game without pdn is 400', isError(r, 400, /pdn/), r.text);
    r = await post('/api/games', { pdn: PDN, fen: 'B:W18:B14' });
    check('bad: pdn and fen together is 400', isError(r, 400, /one of/), r.text);
    r = await post('/api/pdn', { pdn: 'no games here, 1. 99-100' });
    check('bad: a text with no game is 422', isError(r, 422, /no game could be read/), r.text);
    r = await post('/api/pdn', {});
    check('bad: /api/pdn without pdn is 400', isError(r, 400, /pdn.*missing/), r.text);
    r = await post('/api/pdn', { pdn: 5 });
    check('bad: a pdn that is not a string is 400', isError(r, 400, /pdn.*string/), r.text);
    r = await get('/api/pdn');
    check('bad: GET /api/pdn is 405', isError(r, 405) && r.headers.allow === 'POST', r.status);

    // ---- ballots ----
    r = await post('/api/games', { ballot: 4, side: 'both' });
    check('review: a game from ballot 4 has its three moves and its name', r.status === 201 &&
          r.json.ballot === 'ballot 004: 9-13 22-17 13-22' && r.json.moves.map((m) => m.move).join(' ') === '9-13 22-17 13x22',
          r.text);
    r = await post('/api/games', { ballot: 0 });
    check('review: ballot 0 picks a ballot in use', r.status === 201 && /^ballot \d{3}: /.test(r.json.ballot) &&
          r.json.ply === 3, r.text);
    const pos = r.json.fen;
    r = await post('/api/games', { fen: pos });
    check('review: a FEN of a ballot position is named', r.status === 201 && /^ballot \d{3}/.test(r.json.ballot || ''), r.text);
    r = await post('/api/games', { ballot: 175 });
    check('bad: ballot 175 is 400', isError(r, 400, /ballot.*0 to 174/), r.text);

    // ---- the endgame databases' verdict (the server has the 3-piece set) ----
    r = await post('/api/games', { side: 'both', fen: 'W:W32:BK10,K14' });
    const eg = r.json.id;
    await post(`/api/games/${eg}/analyse`, { time: 0.3 });
    st = await waitIdle(base, eg, 15);
    check('review: a database position gets the databases\' verdict', st.engine.database === 'black wins', st.engine);
    // An analysis shows a drawn position as 0: the engine's contempt (a draw costs it 0.20 when it
    // plays) is for play only.
    r = await post('/api/games', { side: 'both', fen: 'B:WK32:BK1' });
    const kk = r.json.id;
    await post(`/api/games/${kk}/analyse`, { time: 0.2 });
    st = await waitIdle(base, kk, 15);
    check('review: a drawn database position is analysed as 0, no contempt', st.engine.database === 'draw' &&
          st.engine.eval === 0 && st.engine.lines.every((l) => l.eval === 0), st.engine);
    r = await post('/api/games', { side: 'both', fen: 'B:W5,6:BK20,K28' });
    const big = r.json.id;
    await post(`/api/games/${big}/analyse`, { time: 0.2 });
    st = await waitIdle(base, big, 15);
    check('review: a position beyond the databases has no verdict', st.engine.depth >= 1 && st.engine.database === undefined,
          st.engine);
}

main().then(() => process.exit(Math.min(failureCount(), 100)), (err) => {
    console.log(`FAIL api-review: exception ${err && err.stack ? err.stack : err}`);
    process.exit(1);
});
