// lib.mjs - helpers shared by the `ponder serve` tests (api.mjs, browser.mjs, load.mjs): PASS/FAIL
// lines in the format of tests/run.sh, HTTP calls, a raw socket for malformed requests, and a
// minimal WebSocket client (node 20 has none built in).
import net from 'node:net';
import http from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';

let failures = 0;

export function check(name, ok, ...details) {
    console.log(`${ok ? 'PASS' : 'FAIL'} ${name}`);
    if (!ok) {
        failures++;
        for (const d of details) console.log(`    ${typeof d === 'string' ? d : JSON.stringify(d)}`.slice(0, 800));
    }
    return ok;
}

export function failureCount() {
    return failures;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Polls game ID of the server at BASE until its engine is idle, at most SECONDS; returns the
// game's last state.
export async function waitIdle(base, id, seconds = 10) {
    let r;
    for (let i = 0; i < seconds * 20; i++) {
        r = await request(base, 'GET', `/api/games/${id}`);
        if (r.status !== 200 || r.json.engine.state === 'idle') break;
        await sleep(50);
    }
    return r.json;
}

// The resident memory of process PID in MB (0 when it cannot be read).
export function rssMB(pid) {
    try {
        const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
        return m ? Number(m[1]) / 1024 : 0;
    } catch (err) {
        return 0;
    }
}

// An HTTP request through node's http module (any method and header, Host included).
// Resolves to {status, headers, text, json}; never rejects on an HTTP error status.
// AGENT: an http.Agent (keep-alive connections for the load test); by default one connection
// per request.
export function request(base, method, path, { body, headers = {}, json = true, agent = false } = {}) {
    return new Promise((resolve, reject) => {
        const url = new URL(path, base);
        const h = { ...headers };
        let data = body;
        if (body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body)) {
            data = JSON.stringify(body);
            if (json && !('Content-Type' in h)) h['Content-Type'] = 'application/json';
        }
        if (data !== undefined) h['Content-Length'] = Buffer.byteLength(data);
        const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search,
                                   method, headers: h, agent }, (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => {
                const text = Buffer.concat(chunks).toString('utf8');
                let parsed = null;
                try { parsed = text ? JSON.parse(text) : null; } catch (e) { parsed = null; }
                resolve({ status: res.statusCode, headers: res.headers, text, json: parsed });
            });
        });
        req.setTimeout(30000, () => req.destroy(new Error(`${method} ${path}: timed out`)));
        req.on('error', reject);
        if (data !== undefined) req.write(data);
        req.end();
    });
}

// Sends RAW bytes on a fresh connection and returns what comes back before the server closes
// or TIMEOUT ms pass (then the socket is destroyed).
export function raw(base, bytes, timeout = 3000) {
    const url = new URL(base);
    return new Promise((resolve) => {
        const chunks = [];
        const s = net.connect(Number(url.port), url.hostname, () => s.write(bytes));
        const done = () => { clearTimeout(t); s.destroy(); resolve(Buffer.concat(chunks).toString('latin1')); };
        const t = setTimeout(done, timeout);
        s.on('data', (c) => {
            chunks.push(c);
            const text = Buffer.concat(chunks).toString('latin1');
            // A complete response with a Content-Length: no need to wait for the close.
            const m = /content-length:\s*(\d+)/i.exec(text);
            const end = text.indexOf('\r\n\r\n');
            if (m && end >= 0 && Buffer.byteLength(text, 'latin1') >= end + 4 + Number(m[1])) done();
        });
        s.on('error', done);
        s.on('close', done);
    });
}

// Opens a WebSocket to PATH. Resolves to {status, socket, next(timeout)} where next() resolves
// to the next text message (or null on timeout or close). A refused handshake has status != 101.
export function websocket(base, path, headers = {}) {
    const url = new URL(base);
    const key = crypto.randomBytes(16).toString('base64');
    return new Promise((resolve) => {
        const s = net.connect(Number(url.port), url.hostname);
        let buf = Buffer.alloc(0);
        let upgraded = false;
        let closed = false;
        const messages = [];
        const waiters = [];
        const deliver = (m) => { const w = waiters.shift(); if (w) w(m); else messages.push(m); };
        const finish = (status) => resolve({
            status,
            next(timeout = 5000) {
                if (messages.length) return Promise.resolve(messages.shift());
                if (closed) return Promise.resolve(null);
                return new Promise((r) => {
                    const t = setTimeout(() => { const i = waiters.indexOf(f); if (i >= 0) waiters.splice(i, 1); r(null); }, timeout);
                    const f = (m) => { clearTimeout(t); r(m); };
                    waiters.push(f);
                });
            },
            close() { closed = true; s.destroy(); },
        });
        s.on('connect', () => {
            const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
            s.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\n` +
                    `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\n` +
                    `Sec-WebSocket-Version: 13\r\n${extra}\r\n`);
        });
        s.on('data', (c) => {
            buf = Buffer.concat([buf, c]);
            if (!upgraded) {
                const end = buf.indexOf('\r\n\r\n');
                if (end < 0) return;
                const head = buf.subarray(0, end).toString('latin1');
                buf = buf.subarray(end + 4);
                const status = Number(head.split(' ')[1]);
                upgraded = status === 101;
                finish(status);
                if (!upgraded) { s.destroy(); return; }
            }
            // Frames from the server are not masked.
            for (;;) {
                if (buf.length < 2) return;
                const op = buf[0] & 0x0f;
                let len = buf[1] & 0x7f;
                let off = 2;
                if (len === 126) { if (buf.length < 4) return; len = buf.readUInt16BE(2); off = 4; }
                else if (len === 127) { if (buf.length < 10) return; len = Number(buf.readBigUInt64BE(2)); off = 10; }
                if (buf.length < off + len) return;
                const payload = buf.subarray(off, off + len);
                buf = buf.subarray(off + len);
                if (op === 1) deliver(payload.toString('utf8'));
                else if (op === 8) { closed = true; deliver(null); s.destroy(); return; }
                else if (op === 9) { // ping: answer with a masked pong
                    const mask = crypto.randomBytes(4);
                    const p = Buffer.from(payload);
                    for (let i = 0; i < p.length; i++) p[i] ^= mask[i & 3];
                    s.write(Buffer.concat([Buffer.from([0x8a, 0x80 | p.length]), mask, p]));
                }
            }
        });
        const gone = () => { closed = true; if (!upgraded) finish(0); while (waiters.length) waiters.shift()(null); };
        s.on('error', gone);
        s.on('close', gone);
    });
}
