// serve-clients.mjs BASE_URL PID [--clients N] [--seconds S] [--max-rss MB] [--misbehaving F] -
// the stress test of `ponder serve' (tests/stress/serve.sh): N concurrent clients for S seconds against the server
// of process PID. Four in five are players that play whole games and check every answer against
// what they asked (nothing lost: each move played is in the next state, exactly once). The rest
// misbehave in turn: garbage bytes, bodies over the limit, requests cut off half-way or left
// hanging, bad JSON, unknown games and methods, pipelined requests, engine moves abandoned
// while the engine thinks, WebSockets dropped. They must get a 4xx or a closed connection,
// never a 5xx, and must not disturb the players. The server's memory (RSS, from /proc) is
// sampled all along and must stay under --max-rss; the line `stress: rss START END PEAK' lets
// serve.sh compare successive rounds. Prints PASS/FAIL lines and the figures; the exit status
// is the number of failures.
import http from 'node:http';
import net from 'node:net';
import { check, failureCount, request, rssMB, sleep, websocket } from '../web/lib.mjs';

const args = process.argv.slice(2);
const base = args[0];
const pid = Number(args[1]);
const opt = (name, def) => {
    const i = args.indexOf(name);
    return i > 0 && i + 1 < args.length ? Number(args[i + 1]) : def;
};
const clients = opt('--clients', 200);
const seconds = opt('--seconds', 30);
const maxRss = opt('--max-rss', 300);
const badShare = opt('--misbehaving', 0.2); // the share of misbehaving clients
if (!base || !(pid > 0)) {
    console.error('usage: node serve-clients.mjs BASE_URL PID [--clients N] [--seconds S] [--max-rss MB]');
    process.exit(2);
}
const url = new URL(base);
const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
const counts = { retried: 0, requests: 0, moves: 0, engine: 0, games: 0, misbehaviours: 0, closed: 0 };
const problems = []; // the first unexpected answers
let problemCount = 0;

function problem(text) {
    problemCount++;
    if (problems.length < 8) problems.push(text.slice(0, 300));
}

// One request on the keep-alive agent. A connection the server closed for being idle (its
// keep-alive timeout) just as a request went out on it is the one failure a client must retry:
// node marks such requests reusedSocket, and the server never saw them.
function send(method, path, body, headers = {}) {
    return new Promise((resolve) => {
        const h = { ...headers };
        let data;
        if (body !== undefined) {
            data = typeof body === 'string' ? body : JSON.stringify(body);
            if (!('Content-Type' in h)) h['Content-Type'] = 'application/json';
            h['Content-Length'] = Buffer.byteLength(data);
        }
        const attempt = (retry) => {
            const req = http.request({ host: url.hostname, port: url.port, path, method, headers: h,
                                       agent: retry ? false : agent }, (res) => {
                const chunks = [];
                res.on('data', (c) => chunks.push(c));
                res.on('end', () => {
                    const text = Buffer.concat(chunks).toString('utf8');
                    let json = null;
                    try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
                    resolve({ status: res.statusCode, text, json });
                });
            });
            req.setTimeout(30000, () => req.destroy(new Error('timed out after 30 s')));
            req.on('error', (err) => {
                if (!retry && req.reusedSocket && (err.code === 'ECONNRESET' || /hang up/.test(err.message))) {
                    counts.retried++;
                    attempt(true);
                } else resolve({ status: 0, text: String(err.message) });
            });
            if (data !== undefined) req.write(data);
            req.end();
        };
        attempt(false);
    });
}

async function call(method, path, body, want, headers) {
    const r = await send(method, path, body, headers);
    counts.requests++;
    if (!want.includes(r.status)) {
        problem(`${method} ${path} -> ${r.status} ${String(r.text)}`);
        return null;
    }
    return r;
}

function rng(seed) {
    let x = (seed * 2654435761) % 4294967296 || 1;
    return () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648; };
}

// A player: whole games, every answer checked against the request.
async function player(deadline, seed) {
    const random = rng(seed);
    let state = null;
    while (Date.now() < deadline) {
        if (!state || state.over || state.ply >= 60) {
            if (state) await call('DELETE', `/api/games/${state.id}`, undefined, [204]);
            const r = await call('POST', '/api/games', { side: 'both', time: 0.02, depth: 3 }, [201]);
            if (!r) return;
            state = r.json;
            counts.games++;
            continue;
        }
        const x = random();
        let r;
        if (x < 0.7) {
            const m = state.legal[Math.floor(random() * state.legal.length)];
            r = await call('POST', `/api/games/${state.id}/move`, { path: m.path }, [200]);
            if (r && (r.json.ply !== state.ply + 1 ||
                      r.json.moves[state.ply].move !== m.move))
                problem(`move ${m.move} at ply ${state.ply}: state has ply ${r.json.ply}`);
            counts.moves++;
        } else if (x < 0.8) {
            r = await call('POST', `/api/games/${state.id}/engine`, { wait: true }, [200]);
            if (r && r.json.ply !== state.ply + 1) problem(`engine move at ply ${state.ply}: ply ${r.json.ply}`);
            counts.engine++;
        } else if (x < 0.93) {
            r = await call('GET', `/api/games/${state.id}`, undefined, [200]);
            if (r && r.json.ply !== state.ply) problem(`state changed by itself: ply ${state.ply} -> ${r.json.ply}`);
        } else if (state.ply > 0) {
            r = await call('POST', `/api/games/${state.id}/undo`, {}, [200]);
            if (r && r.json.ply !== state.ply - 1) problem(`undo at ply ${state.ply}: ply ${r.json.ply}`);
        } else continue;
        if (!r) return;
        state = r.json;
    }
    if (state) await call('DELETE', `/api/games/${state.id}`, undefined, [204]);
}

// Sends BYTES on a fresh connection (maybe after WAIT ms of silence or cut off), resolves to the
// status line's code (0 when the server closed without answering).
function rawExchange(bytes, { hold = 0, cut = false, timeout = 15000 } = {}) {
    return new Promise((resolve) => {
        let data = '';
        let done = false;
        const s = net.connect(Number(url.port), url.hostname);
        const finish = () => {
            if (done) return;
            done = true;
            clearTimeout(t);
            s.destroy();
            const m = /^HTTP\/1\.[01] (\d{3})/.exec(data);
            resolve(m ? Number(m[1]) : 0);
        };
        const t = setTimeout(finish, timeout);
        s.on('connect', async () => {
            s.write(bytes);
            if (cut) { finish(); return; }
            if (hold) { await sleep(hold); finish(); }
        });
        s.on('data', (c) => {
            data += c.toString('latin1');
            if (/\r\n\r\n/.test(data) && !hold) {
                const m = /content-length:\s*(\d+)/i.exec(data);
                const end = data.indexOf('\r\n\r\n');
                if (!m || data.length >= end + 4 + Number(m[1])) finish();
            }
        });
        s.on('error', finish);
        s.on('close', finish);
    });
}

const host = `Host: ${url.host}\r\n`;
const MISBEHAVIOURS = [
    async () => rawExchange('\x00\xff garbage \r\n\r\n'),
    async () => rawExchange(`POST /api/games HTTP/1.1\r\n${host}Content-Type: application/json\r\n` +
                            `Content-Length: 20000\r\n\r\n${'x'.repeat(20000)}`),
    async () => rawExchange(`POST /api/games HTTP/1.1\r\n${host}Content-Type: application/json\r\n` +
                            'Content-Length: 100\r\n\r\n{"side":', { hold: 1500 }),
    async () => rawExchange(`POST /api/games HTTP/1.1\r\n${host}Content-Length: 10\r\n\r\n{`, { cut: true }),
    async () => rawExchange(`GET /api/status HTTP/1.1\r\n${host}\r\nGET /api/status HTTP/1.1\r\n${host}\r\n` +
                            `GET /api/nothing HTTP/1.1\r\n${host}Connection: close\r\n\r\n`),
    async () => rawExchange('GET /api/status HTTP/1.1\r\n' + 'X-Long: ' + 'y'.repeat(70000) + '\r\n\r\n'),
    async () => (await call('POST', '/api/games', '{"side": "black", ', [400])) ? 400 : -1,
    async () => (await call('POST', '/api/games', '{}', [415], { 'Content-Type': 'text/plain' })) ? 415 : -1,
    async () => (await call('POST', '/api/games', { side: 7, time: 'x' }, [400])) ? 400 : -1,
    async () => (await call('GET', '/api/games/0123456789abcdef', undefined, [404])) ? 404 : -1,
    async () => (await call('PUT', '/api/games', {}, [405])) ? 405 : -1,
    async () => (await call('POST', '/api/games/zz/move', { move: '9-13' }, [404])) ? 404 : -1,
    async () => {
        // An engine move asked for, then the connection dropped while the engine thinks.
        const r = await call('POST', '/api/games', { side: 'both', time: 0.5 }, [201]);
        if (!r) return -1;
        const body = JSON.stringify({ wait: true, time: 0.5 });
        const st = await rawExchange(`POST /api/games/${r.json.id}/engine HTTP/1.1\r\n${host}` +
                                     `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
                                     { hold: 100 });
        await call('DELETE', `/api/games/${r.json.id}`, undefined, [204]);
        return st;
    },
    async () => {
        // A WebSocket to a game, dropped at once; and one to no game.
        const r = await call('POST', '/api/games', { side: 'both' }, [201]);
        if (!r) return -1;
        const ws = await websocket(base, `/api/live?game=${r.json.id}`);
        if (ws.status === 101) await ws.next(500);
        ws.close();
        const bad = await websocket(base, '/api/live');
        bad.close();
        await call('DELETE', `/api/games/${r.json.id}`, undefined, [204]);
        return bad.status === 101 ? -1 : 400;
    },
];

async function misbehaver(deadline, seed) {
    let k = seed;
    while (Date.now() < deadline) {
        const which = k++ % MISBEHAVIOURS.length;
        const st = await MISBEHAVIOURS[which]();
        counts.misbehaviours++;
        if (st === 0) counts.closed++;
        else if (st < 0 || st >= 500) problem(`misbehaviour ${which}: status ${st}`);
    }
}

const before = (await request(base, 'GET', '/api/status')).json;
const samples = [];
const t0 = Date.now();
const sampler = setInterval(() => samples.push(rssMB(pid)), 250);
const marks = [];
const marker = setInterval(() => marks.push(`${Math.round((Date.now() - t0) / 1000)}s ${rssMB(pid).toFixed(0)}`), 5000);
const rssStart = rssMB(pid);
const deadline = t0 + seconds * 1000;
const nbad = Math.round(clients * badShare);
await Promise.all(Array.from({ length: clients }, (_, i) =>
    i < nbad ? misbehaver(deadline, i) : player(deadline, i + 1)));
const elapsed = (Date.now() - t0) / 1000;
clearInterval(sampler);
clearInterval(marker);

console.log(`stress: ${clients} clients (${clients - nbad} players, ${nbad} misbehaving) for ${elapsed.toFixed(1)} s: ` +
            `${counts.requests} API requests (${(counts.requests / elapsed).toFixed(0)}/s), ${counts.games} games, ` +
            `${counts.moves} moves, ${counts.engine} engine moves, ${counts.misbehaviours} misbehaviours ` +
            `(${counts.closed} closed without an answer), ${counts.retried} retried after a keep-alive close, ` +
            `${problemCount} problems`);
check(`serve stress: ${clients} clients for ${seconds} s, every answer as expected`,
      problemCount === 0 && counts.misbehaviours + counts.moves > clients, ...problems);
const t1 = Date.now();
const after = await request(base, 'GET', '/api/status').catch(() => ({ status: 0 }));
check('serve stress: the server answers at once afterwards', after.status === 200 && Date.now() - t1 < 5000,
      after.status);
check('serve stress: every game deleted is freed', after.json && after.json.games === before.games &&
      (after.json.allocated === undefined || after.json.allocated === before.allocated), before, after.json);
const mbs = samples.filter((m) => m > 0);
const half = Math.floor(mbs.length / 2);
const first = Math.max(...mbs.slice(0, half));
const second = Math.max(...mbs.slice(half));
const peak = Math.max(...mbs);
console.log(`stress: server RSS MB: start ${rssStart.toFixed(1)}, first-half peak ${first.toFixed(1)}, ` +
            `second-half peak ${second.toFixed(1)}, end ${mbs[mbs.length - 1].toFixed(1)}`);
console.log(`stress: server RSS MB every 5 s: ${marks.join(', ')}`);
console.log(`stress: rss ${rssStart.toFixed(1)} ${mbs[mbs.length - 1].toFixed(1)} ${peak.toFixed(1)}`);
check(`serve stress: memory under ${maxRss} MB (peak ${peak.toFixed(0)} MB)`, peak <= maxRss, { peak, first, second });
agent.destroy();
process.exit(Math.min(failureCount(), 100));
