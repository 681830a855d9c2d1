// load.mjs BASE_URL [--clients N] [--seconds S] [--pid PID] [--max-rss MB] - load test of
// `ponder serve`: N clients, each with its own game, make moves as fast as the server answers
// for S seconds (random legal moves for both sides, now and then an engine move, a state read,
// the legal moves, an undo; a new game when one ends). Every answer must be the expected 2xx.
// Afterwards the server must have freed every game the clients deleted (its count of games in
// memory is back where it was). With --pid, its resident memory is sampled from /proc and must
// stay under --max-rss. (It grows for a while as glibc's per-thread caches fill across
// civetweb's threads, then levels off: see docs/serve.md.) Prints PASS/FAIL lines and the
// figures: requests/s, latencies, memory.
import http from 'node:http';
import { check, failureCount, request, rssMB } from './lib.mjs';

const args = process.argv.slice(2);
const base = args[0];
const opt = (name, def) => {
    const i = args.indexOf(name);
    return i > 0 && i + 1 < args.length ? Number(args[i + 1]) : def;
};
const clients = opt('--clients', 100);
const seconds = opt('--seconds', 20);
const pid = opt('--pid', 0);
const maxRss = opt('--max-rss', 0);
if (!base || !(clients > 0) || !(seconds > 0)) {
    console.error('usage: node load.mjs BASE_URL [--clients N] [--seconds S] [--pid PID] [--max-rss MB]');
    process.exit(2);
}

// One keep-alive connection per client, as a browser tab would keep.
const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
const latencies = {};   // kind -> [ms]
const errors = [];      // the first few unexpected answers
let errorCount = 0;
let requests = 0;

function record(kind, ms) {
    (latencies[kind] ||= []).push(ms);
    requests++;
}

async function call(kind, method, path, body, want) {
    const t0 = performance.now();
    let r;
    try {
        r = await request(base, method, path, body === undefined ? { agent } : { body, agent });
    } catch (err) {
        r = { status: 0, text: String(err.message) };
    }
    record(kind, performance.now() - t0);
    if (!want.includes(r.status)) {
        errorCount++;
        if (errors.length < 5) errors.push(`${method} ${path} -> ${r.status} ${String(r.text).slice(0, 200)}`);
        return null;
    }
    return r;
}

async function client(deadline, seed) {
    let rnd = seed * 2654435761 % 4294967296 || 1;
    const random = () => { rnd = (rnd * 1103515245 + 12345) % 2147483648; return rnd / 2147483648; };
    let state = null;
    while (Date.now() < deadline) {
        if (!state || state.over || state.ply >= 80) {
            if (state) await call('delete', 'DELETE', `/api/games/${state.id}`, undefined, [204]);
            const r = await call('create', 'POST', '/api/games', { side: 'both', time: 0.05, depth: 4 }, [201]);
            state = r ? r.json : null;
            if (!state) return;
            continue;
        }
        const x = random();
        let r;
        if (x < 0.65) {
            const m = state.legal[Math.floor(random() * state.legal.length)];
            r = await call('move', 'POST', `/api/games/${state.id}/move`, { path: m.path }, [200]);
        } else if (x < 0.75) {
            r = await call('engine', 'POST', `/api/games/${state.id}/engine`, { wait: true }, [200]);
        } else if (x < 0.9) {
            r = await call('state', 'GET', `/api/games/${state.id}`, undefined, [200]);
        } else if (x < 0.97) {
            await call('moves', 'GET', `/api/games/${state.id}/moves`, undefined, [200]);
            continue;
        } else if (state.ply > 0) {
            r = await call('undo', 'POST', `/api/games/${state.id}/undo`, {}, [200]);
        } else continue;
        if (!r) return; // an error: this client stops (the count says so)
        state = r.json;
    }
    if (state) await call('delete', 'DELETE', `/api/games/${state.id}`, undefined, [204]);
}

function pct(sorted, p) {
    return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : 0;
}

const before = (await request(base, 'GET', '/api/status')).json;
const samples = [];
const t0 = Date.now();
const sampler = pid ? setInterval(() => samples.push({ t: Date.now() - t0, mb: rssMB(pid) }), 250) : null;
const rssStart = pid ? rssMB(pid) : 0;
const deadline = t0 + seconds * 1000;
await Promise.all(Array.from({ length: clients }, (_, i) => client(deadline, i + 1)));
const elapsed = (Date.now() - t0) / 1000;
if (sampler) clearInterval(sampler);

const all = Object.values(latencies).flat().sort((a, b) => a - b);
console.log(`load: ${clients} clients, ${elapsed.toFixed(1)} s, ${requests} requests, ` +
            `${(requests / elapsed).toFixed(0)} requests/s, ${errorCount} errors`);
console.log(`load: latency ms (all) p50 ${pct(all, 0.5).toFixed(1)} p95 ${pct(all, 0.95).toFixed(1)} ` +
            `p99 ${pct(all, 0.99).toFixed(1)} max ${pct(all, 1).toFixed(1)}`);
for (const [kind, list] of Object.entries(latencies)) {
    list.sort((a, b) => a - b);
    console.log(`load:   ${kind.padEnd(7)} n ${String(list.length).padStart(7)}  p50 ${pct(list, 0.5).toFixed(1)}  ` +
                `p95 ${pct(list, 0.95).toFixed(1)}  p99 ${pct(list, 0.99).toFixed(1)}  max ${pct(list, 1).toFixed(1)}`);
}
check(`load: ${clients} clients for ${seconds} s without an error`, errorCount === 0 && requests > clients, ...errors);
const status = await request(base, 'GET', '/api/status').catch(() => ({ status: 0 }));
check('load: the server is up afterwards', status.status === 200, status.status);
// Every client deleted its games: the server must have freed them all (no reference leaked).
check('load: every game deleted is freed', status.json && status.json.allocated === before.allocated &&
      status.json.games === before.games, before, status.json);

if (pid) {
    const mbs = samples.map((s) => s.mb).filter((m) => m > 0);
    const half = Math.floor(mbs.length / 2);
    const first = Math.max(...mbs.slice(0, half));
    const second = Math.max(...mbs.slice(half));
    const peak = Math.max(...mbs);
    console.log(`load: server memory (RSS) MB: start ${rssStart.toFixed(1)}, peak ${peak.toFixed(1)}, ` +
                `first-half peak ${first.toFixed(1)}, second-half peak ${second.toFixed(1)}, end ${mbs[mbs.length - 1].toFixed(1)}`);
    const marks = [];
    for (let t = 5000; t <= seconds * 1000; t += 5000) {
        const near = samples.filter((x) => x.t <= t && x.mb > 0).pop();
        if (near) marks.push(`${t / 1000}s ${near.mb.toFixed(0)}`);
    }
    if (marks.length > 1) console.log(`load: server memory (RSS) MB over time: ${marks.join(', ')}`);
    if (maxRss) check(`load: server memory stays under ${maxRss} MB`, peak <= maxRss, peak);
}
agent.destroy();
process.exit(Math.min(failureCount(), 100));
