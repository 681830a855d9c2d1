// browser.mjs BASE_URL SHOT_DIR - the web board in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core): opens the page, plays a move by clicking and sees the engine's
// reply, plays a capture with a choice of routes, sets a position from FEN, reviews a move,
// flips the board, undoes, downloads the PDN, watches the engine play itself, and lays the page
// out on a phone-sized screen. Any console error or page exception fails the test. Screenshots
// go to SHOT_DIR/serve-desktop.png and serve-phone.png.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { check, failureCount, request } from './lib.mjs';

const [base, shotDir] = process.argv.slice(2);
if (!base || !shotDir) {
    console.error('usage: node browser.mjs BASE_URL SHOT_DIR');
    process.exit(2);
}
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const STEP_MS = 15000; // the longest any single step may take (engine replies included)

let chromium;
try {
    ({ chromium } = await import('playwright-core'));
} catch (err) {
    console.log('FAIL browser: playwright-core is not installed (make npm)');
    console.log(`    ${err.message}`);
    process.exit(1);
}
if (!fs.existsSync(CHROMIUM)) {
    console.log(`FAIL browser: no Chromium at ${CHROMIUM} (scripts/deps/serve.list installs it)`);
    process.exit(1);
}

const downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'ponder-dl-'));
const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    downloadsPath: downloads,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    // playwright gives each launch a fresh temporary profile (--user-data-dir) of its own.
});

// Console errors and page exceptions, each with the step it happened in. A step may declare
// the errors it provokes on purpose (a refused FEN is a 400, which Chromium logs).
const consoleErrors = [];
let step = 'start';
let expected = null;
function watch(page) {
    page.on('console', (msg) => {
        if (msg.type() !== 'error') return;
        if (expected && expected.test(msg.text())) return;
        consoleErrors.push(`${step}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => consoleErrors.push(`${step}: exception ${err.message}`));
    // Which requests failed, to explain a "Failed to load resource" message.
    page.on('response', (res) => {
        if (res.status() >= 400) failedRequests.push(`${step}: ${res.request().method()} ${res.url()} -> ${res.status()}`);
    });
}
const failedRequests = [];

// Checks run inside the page.
const pieceAt = (page, sq) => page.evaluate((s) => {
    const g = document.querySelector(`#board [data-piece="${s}"]`);
    return g ? (g.classList.contains('piece-black') ? 'black' : 'white') : null;
}, sq);
const moveTexts = (page) => page.$$eval('#moves button', (bs) => bs.map((b) => b.textContent));
const clickSquare = (page, sq) => page.click(`#board rect.hit[data-sq="${sq}"]`);
const squareX = (page, sq) => page.$eval(`#board rect.hit[data-sq="${sq}"]`, (r) => Number(r.getAttribute('x')));

async function waitFor(page, fn, arg) {
    try {
        await page.waitForFunction(fn, arg, { timeout: STEP_MS, polling: 50 });
        return true;
    } catch (err) {
        return false;
    }
}

async function run() {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
    const page = await context.newPage();
    watch(page);
    const sockets = [];
    page.on('websocket', (ws) => {
        const rec = { url: ws.url(), frames: 0 };
        sockets.push(rec);
        ws.on('framereceived', () => rec.frames++);
    });

    // 1. The page opens with the start position, Black (the human) to move.
    step = 'open';
    await page.goto(base, { waitUntil: 'load' });
    let ok = await waitFor(page, () => document.querySelectorAll('#board [data-piece]').length === 24);
    check('browser: the page shows the 24 pieces', ok);
    check('browser: the status says it is our move',
          /Your move \(Black\)/.test(await page.textContent('#status')), await page.textContent('#status'));
    check('browser: Black is at the bottom when the human plays Black', (await squareX(page, 1)) > (await squareX(page, 4)));

    // 2. Play 11-15 by clicking; the destinations light up; the engine replies on the board.
    step = 'click a move';
    await clickSquare(page, 11);
    const dests = await page.$$eval('#board [data-mark="dest"]', (cs) => cs.map((c) => Number(c.dataset.sq)).sort((a, b) => a - b));
    check('browser: clicking 11 lights up 15 and 16', dests.join() === '15,16', dests);
    await clickSquare(page, 15);
    ok = await waitFor(page, () => document.querySelectorAll('#moves button').length >= 2);
    const moves = await moveTexts(page);
    check('browser: our move and the engine\'s reply are in the move list', ok && moves[0] === '11-15' && moves.length === 2, moves);
    check('browser: the board shows our man on 15', (await pieceAt(page, 15)) === 'black' && (await pieceAt(page, 11)) === null);
    if (moves[1]) {
        const [from, to] = moves[1].split(/[-x]/).map(Number);
        check('browser: the board shows the engine\'s reply', (await pieceAt(page, to)) === 'white' && (await pieceAt(page, from)) === null, moves[1]);
    }
    ok = await waitFor(page, () => /depth \d+/.test(document.querySelector('#engine-line').textContent));
    check('browser: the engine\'s depth, score and line are shown', ok && (await page.textContent('#pv')).length > 0,
          await page.textContent('#engine-line'));
    check('browser: the live state came over a WebSocket', sockets.some((s) => s.url.includes('/api/live?game=') && s.frames > 0),
          sockets);

    // 3. Review: click the first move, the board shows the position after it.
    step = 'review';
    await page.click('#moves button[data-ply="1"]');
    check('browser: clicking a move shows that position', !(await page.isHidden('#review')) &&
          (await pieceAt(page, 15)) === 'black' && (await pieceAt(page, Number(moves[1].split(/[-x]/)[1]))) === null);
    await page.click('#review-live');
    check('browser: back to the game', await page.isHidden('#review'));

    // 4. Flip the board.
    step = 'flip';
    const before = await squareX(page, 1);
    await page.click('#flip');
    check('browser: flip turns the board round', (await squareX(page, 1)) === 700 - before, before);

    // 5. Set up a position with two capture routes to square 26 and play both, choosing.
    step = 'fen';
    await page.selectOption('#side', 'both');
    await waitFor(page, () => document.querySelector('#side').value === 'both');
    await page.fill('#fen', 'B:W15,23,14,22:B10,1');
    await page.click('#setup');
    ok = await waitFor(page, () => document.querySelectorAll('#board [data-piece]').length === 6 &&
                                   document.querySelectorAll('#moves button').length === 0);
    check('browser: a position set from FEN is shown', ok);
    await clickSquare(page, 10);
    await clickSquare(page, 26);
    ok = await waitFor(page, () => !document.querySelector('#routes').hidden);
    const routes = await page.$$eval('#route-list button', (bs) => bs.map((b) => b.textContent).sort());
    check('browser: two routes to 26 are offered', ok && routes.join() === '10x17x26,10x19x26', routes);
    const hops = await page.$$eval('#board [data-mark="hop"]', (cs) => cs.map((c) => Number(c.dataset.sq)).sort((a, b) => a - b));
    check('browser: their first landing squares light up', hops.join() === '17,19', hops);
    await clickSquare(page, 19);
    ok = await waitFor(page, () => document.querySelectorAll('#moves button').length === 1);
    check('browser: the route picked by its landing square is played', ok && (await moveTexts(page))[0] === '10x19x26' &&
          (await pieceAt(page, 15)) === null && (await pieceAt(page, 23)) === null && (await pieceAt(page, 14)) === 'white');

    // Undo, then pick the other route with its button.
    step = 'undo';
    await page.click('#undo');
    ok = await waitFor(page, () => document.querySelectorAll('#moves button').length === 0 &&
                                   document.querySelectorAll('#board [data-piece]').length === 6);
    check('browser: undo takes the capture back', ok);
    await clickSquare(page, 10);
    await clickSquare(page, 26);
    await waitFor(page, () => !document.querySelector('#routes').hidden);
    await page.click('#route-list button:has-text("10x17x26")');
    ok = await waitFor(page, () => document.querySelectorAll('#moves button').length === 1);
    check('browser: the route picked by its button is played', ok && (await moveTexts(page))[0] === '10x17x26' &&
          (await pieceAt(page, 14)) === null && (await pieceAt(page, 22)) === null && (await pieceAt(page, 26)) === 'black');

    // 6. A bad FEN is refused with the server's reason, and the game stays.
    step = 'bad fen';
    expected = /status of 400/;
    await page.fill('#fen', 'B:W33:B1');
    await page.click('#setup');
    ok = await waitFor(page, () => !document.querySelector('#error').hidden);
    const err = await page.textContent('#error');
    check('browser: a bad FEN shows the server\'s reason', ok && /FEN/.test(err) && /33/.test(err), err);
    check('browser: the game stays after a bad FEN', (await moveTexts(page)).join() === '10x17x26');
    expected = null;

    // 7. Download the game as PDN.
    step = 'download';
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: STEP_MS }), page.click('#pdn')]);
    const file = await download.path();
    const pdn = file ? fs.readFileSync(file, 'utf8') : '';
    check('browser: the PDN download holds the set-up and the move', /\.pdn$/.test(download.suggestedFilename()) &&
          pdn.includes('[FEN "B:W14,15,22,23:B1,10"]') && pdn.includes('1. 10x17x26'), download.suggestedFilename(), pdn);

    // 8. Watch the engine play itself from the start.
    step = 'watch';
    await page.selectOption('#time', '0.1');
    await page.selectOption('#delay', '0');
    await page.selectOption('#side', 'none');
    await page.click('#new');
    ok = await waitFor(page, () => document.querySelectorAll('#moves button').length >= 6);
    check('browser: watching, the engine plays both sides', ok, await moveTexts(page));
    await page.click('#watch'); // pause
    await page.waitForTimeout(400);
    const n1 = (await moveTexts(page)).length;
    await page.waitForTimeout(600);
    const n2 = (await moveTexts(page)).length;
    check('browser: pause stops the engine playing', n1 === n2 && /Pause/.test(await page.textContent('#status')), n1, n2);
    const bar = await page.$eval('#evalfill', (e) => e.style.height);
    check('browser: the evaluation bar is set', /%$/.test(bar), bar);
    await page.screenshot({ path: path.join(shotDir, 'serve-watch.png') });

    // 9. A fresh game against the engine for the desktop screenshot, with one move played.
    step = 'screenshot';
    await page.selectOption('#side', 'black');
    await page.selectOption('#time', '0.3');
    await page.click('#new');
    await waitFor(page, () => document.querySelectorAll('#moves button').length === 0 &&
                              document.querySelectorAll('#board [data-piece]').length === 24);
    await clickSquare(page, 9);
    await clickSquare(page, 14);
    await waitFor(page, () => document.querySelectorAll('#moves button').length === 2);
    await clickSquare(page, 10);
    await page.screenshot({ path: path.join(shotDir, 'serve-desktop.png') });
    await context.close();

    // 10. A phone-sized screen: the board fits, nothing scrolls sideways, a move can be played.
    step = 'phone';
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2,
                                             isMobile: true, hasTouch: true });
    const ppage = await phone.newPage();
    watch(ppage);
    await ppage.goto(base, { waitUntil: 'load' });
    ok = await waitFor(ppage, () => document.querySelectorAll('#board [data-piece]').length === 24);
    const box = await ppage.$eval('#board', (e) => { const r = e.getBoundingClientRect(); return { w: r.width, left: r.left }; });
    const scroll = await ppage.evaluate(() => document.documentElement.scrollWidth);
    check('browser: on a phone the board fits the screen', ok && box.w >= 300 && box.left >= 0 && box.left + box.w <= 390 && scroll <= 390,
          box, scroll);
    await ppage.tap('#board rect.hit[data-sq="12"]');
    await ppage.tap('#board rect.hit[data-sq="16"]');
    ok = await waitFor(ppage, () => document.querySelectorAll('#moves button').length === 2);
    check('browser: on a phone a tapped move is played and answered', ok);
    await ppage.screenshot({ path: path.join(shotDir, 'serve-phone.png'), fullPage: true });
    await phone.close();

    check('browser: no console errors', consoleErrors.length === 0, ...consoleErrors, ...failedRequests);
}

try {
    await run();
} catch (err) {
    console.log(`FAIL browser: exception in step "${step}"`);
    console.log(`    ${String(err && err.stack ? err.stack : err).split('\n').slice(0, 6).join('\n    ')}`);
    if (consoleErrors.length) console.log(`    console: ${consoleErrors.join(' | ')}`);
} finally {
    await browser.close();
    fs.rmSync(downloads, { recursive: true, force: true });
}
// The server answers after all this.
const r = await request(base, 'GET', '/api/status').catch(() => ({ status: 0 }));
check('browser: the server is still up', r.status === 200, r.status);
process.exit(Math.min(failureCount(), 100));
