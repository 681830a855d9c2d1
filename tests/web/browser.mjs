// browser.mjs BASE_URL SHOT_DIR - the web board in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core): opens the page, plays a move by clicking and sees the engine's
// reply, plays a capture with a choice of routes, sets a position from FEN, reviews a move,
// flips the board, undoes, downloads the PDN, watches the engine play itself, and lays the page
// out on a phone-sized screen; then the players' features (features() below). Watching, it
// checks the board's orientation (PDN's: squares 1-4 at the top) and Flip; a double jump is
// sampled as it slides, to see it go through its landing square. Any console error
// or page exception fails the test. Screenshots go to SHOT_DIR/serve-desktop.png,
// serve-phone.png, serve-watch.png, serve-clock.png and serve-review.png.
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
// Where square SQ is drawn, as {row, col} of the 8x8 board on the screen (row 0 at the top,
// col 0 at the left): the cell under the middle of its number's label, of its click target and
// of its piece (null when it is empty), each measured on the screen and mapped back through the
// board's own transform.
const drawnAt = (page, sq) => page.evaluate((s) => {
    const svg = document.querySelector('#board');
    const toBoard = svg.getScreenCTM().inverse();
    const cell = (e) => {
        if (!e) return null;
        const r = e.getBoundingClientRect();
        const p = new DOMPoint(r.x + r.width / 2, r.y + r.height / 2).matrixTransform(toBoard);
        return `${Math.floor(p.y / 100)},${Math.floor(p.x / 100)}`;
    };
    const label = [...svg.querySelectorAll('text.sq-num')].find((t) => t.textContent === String(s));
    return { label: cell(label), hit: cell(svg.querySelector(`rect.hit[data-sq="${s}"]`)),
             piece: cell(svg.querySelector(`[data-piece="${s}"] .body`)) };
}, sq);
// True when square SQ, its label and its piece (if any) are all drawn in cell "ROW,COL".
async function drawnIn(page, sq, rowCol) {
    const d = await drawnAt(page, sq);
    return d.label === rowCol && d.hit === rowCol && (d.piece === null || d.piece === rowCol);
}

// Run in the page before a move is played: when the board next draws a piece sliding
// (.piece.moving), samples its slide at 100 even steps of its animation (paused for the
// purpose, then let go on) and leaves in window.slide the squares its centre crossed, in order,
// and how near (in board units, a square is 100) it came to each square's centre.
function recordSlide() {
    delete window.slide;
    const svg = document.querySelector('#board');
    const seen = new MutationObserver(() => {
        const g = svg.querySelector('.piece.moving');
        const a = g && g.getAnimations()[0];
        if (!a) return;
        seen.disconnect();
        const toBoard = svg.getScreenCTM().inverse();
        const centre = (e) => {
            const r = e.getBoundingClientRect();
            return new DOMPoint(r.x + r.width / 2, r.y + r.height / 2).matrixTransform(toBoard);
        };
        const squares = [...svg.querySelectorAll('rect.hit')].map((r) => ({
            sq: Number(r.dataset.sq), x: Number(r.getAttribute('x')), y: Number(r.getAttribute('y')) }));
        const out = { squares: [], nearest: {} };
        const at = a.currentTime;
        const end = a.effect.getComputedTiming().endTime;
        a.pause();
        for (let i = 0; i <= 100; i++) {
            a.currentTime = (end * i) / 100;
            const p = centre(g.querySelector('.body'));
            for (const q of squares) {
                const d = Math.hypot(p.x - q.x - 50, p.y - q.y - 50);
                out.nearest[q.sq] = Math.min(out.nearest[q.sq] ?? Infinity, Math.round(d * 10) / 10);
                if (p.x >= q.x && p.x < q.x + 100 && p.y >= q.y && p.y < q.y + 100 &&
                    out.squares[out.squares.length - 1] !== q.sq) out.squares.push(q.sq);
            }
        }
        a.currentTime = at;
        a.play();
        window.slide = out;
    });
    seen.observe(svg, { childList: true });
}

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
    await page.evaluate(recordSlide);
    await page.click('#route-list button:has-text("10x17x26")');
    ok = await waitFor(page, () => document.querySelectorAll('#moves button').length === 1);
    check('browser: the route picked by its button is played', ok && (await moveTexts(page))[0] === '10x17x26' &&
          (await pieceAt(page, 14)) === null && (await pieceAt(page, 22)) === null && (await pieceAt(page, 26)) === 'black');
    // The double jump slides square by square: 10, over 14, lands on 17, over 22, to 26; it
    // does not cut across 18 on the straight line from 10 to 26.
    ok = await waitFor(page, () => window.slide !== undefined);
    const slide = await page.evaluate(() => window.slide);
    check('browser: a double jump slides along its path, through its landing square',
          ok && slide.squares.join() === '10,14,17,22,26' && slide.nearest[17] < 2, slide);

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
    // Nobody plays: the board is PDN's diagram, squares 1-4 (Black's side) at the top, square 1
    // second from the left, square 32 second from the right at the bottom. Flip turns it round
    // and back. Every piece is drawn on its own square either way.
    step = 'watch orientation';
    const piecesOnTheirSquares = () => page.evaluate(() => [...document.querySelectorAll('#board [data-piece]')]
        .every((g) => {
            const a = g.querySelector('.body').getBoundingClientRect();
            const b = document.querySelector(`#board rect.hit[data-sq="${g.dataset.piece}"]`).getBoundingClientRect();
            return Math.abs(a.x + a.width / 2 - (b.x + b.width / 2)) < 2 && Math.abs(a.y + a.height / 2 - (b.y + b.height / 2)) < 2;
        }));
    check('browser: watching, square 1 is at the top and 32 at the bottom (PDN\'s diagram)',
          (await drawnIn(page, 1, '0,1')) && (await drawnIn(page, 4, '0,7')) && (await drawnIn(page, 32, '7,6')) &&
          (await drawnIn(page, 29, '7,0')), await drawnAt(page, 1), await drawnAt(page, 32));
    check('browser: watching, every piece is drawn on its square', await piecesOnTheirSquares());
    await page.click('#flip');
    check('browser: watching, Flip puts square 1 at the bottom and 32 at the top',
          (await drawnIn(page, 1, '7,6')) && (await drawnIn(page, 32, '0,1')), await drawnAt(page, 1), await drawnAt(page, 32));
    check('browser: flipped, every piece is still drawn on its square', await piecesOnTheirSquares());
    await page.click('#flip');
    check('browser: watching, a second Flip turns it back',
          (await drawnIn(page, 1, '0,1')) && (await drawnIn(page, 32, '7,6')), await drawnAt(page, 1), await drawnAt(page, 32));

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
    await page.waitForTimeout(500); // the reply's slide
    await clickSquare(page, 10);
    await page.screenshot({ path: path.join(shotDir, 'serve-desktop.png') });
    await context.close();

    await features();

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
    await ppage.waitForTimeout(500); // the reply's slide
    await ppage.screenshot({ path: path.join(shotDir, 'serve-phone.png'), fullPage: true });
    await phone.close();

    check('browser: no console errors', consoleErrors.length === 0, ...consoleErrors, ...failedRequests);
}

// The board's features for players (issue 17): drag-and-drop, the slide of a move and the fade
// of the men taken, sound, hint and line arrows, three lines, levels, clocks and loss on time,
// resign, a draw offer, ballots, the PDN viewer with its graph, keyboard and the engine on the
// position shown, copying the FEN, the databases' verdict. Screenshots serve-review.png,
// serve-clock.png.
const PDN = `[Event "Club night"]
[Black "Alice"]
[White "Bob"]
[Result "1-0"]
1. 11-15 22-18 2. 15x22 25x18 3. 8-11 29-25 4. 4-8 1-0

[Event "Second"]
[Black "Carol"]
[White "Dan"]
1. 9-14 22-18 *
`;

async function dragSquare(page, from, to) {
    const a = await page.$eval(`#board rect.hit[data-sq="${from}"]`, (r) => { const b = r.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; });
    const b = await page.$eval(`#board rect.hit[data-sq="${to}"]`, (r) => { const c = r.getBoundingClientRect(); return [c.x + c.width / 2, c.y + c.height / 2]; });
    await page.mouse.move(a[0], a[1]);
    await page.mouse.down();
    await page.mouse.move((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, { steps: 5 });
    const dragging = await page.$('#board .piece.dragging');
    await page.mouse.move(b[0], b[1], { steps: 5 });
    await page.mouse.up();
    return dragging !== null;
}

const stateOf = (page) => page.evaluate(async () => {
    const id = sessionStorage.getItem('ponder.game');
    return (await fetch(`/api/games/${id}`)).json();
});

// Polls the server's state of the game until test(state) holds: a change the page sends (a
// PATCH) lands a moment after the page shows it, so the page alone cannot tell it has landed.
async function untilState(page, test) {
    const end = Date.now() + STEP_MS;
    for (;;) {
        if (test(await stateOf(page)))
            return true;
        if (Date.now() > end)
            return false;
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
}

async function features() {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1080 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    watch(page);
    page.on('dialog', (d) => d.accept());
    step = 'drag';
    await page.goto(base, { waitUntil: 'load' });
    await waitFor(page, () => document.querySelectorAll('#board [data-piece]').length === 24);
    await page.selectOption('#time', '0.3');
    await page.check('#sound');
    const dragged = await dragSquare(page, 11, 15);
    check('features: a dragged piece follows the pointer', dragged);
    // The engine's reply slides along its path (a piece with the class "moving" for a moment).
    const slid = await waitFor(page, () => document.querySelector('#board .piece.moving') !== null);
    let ok = await waitFor(page, () => document.querySelectorAll('#moves button').length === 2);
    check('features: a move by drag-and-drop is played and answered', ok && (await moveTexts(page))[0] === '11-15' &&
          (await pieceAt(page, 15)) === 'black', await moveTexts(page));
    check('features: the engine\'s move slides into place', slid);
    check('features: with Sound on, moves make a sound (WebAudio)', await page.evaluate(() => window.ponderSounds >= 2),
          await page.evaluate(() => window.ponderSounds));

    step = 'hint';
    await page.click('#hint');
    ok = await waitFor(page, () => document.querySelector('#board [data-arrow="hint"]') !== null);
    const hintText = await page.textContent('#status');
    check('features: a hint draws the engine\'s move as an arrow and names it, playing nothing', ok &&
          /Hint: \d+[-x]\d+/.test(hintText) && (await moveTexts(page)).length === 2, hintText);
    await page.check('#arrows');
    ok = await waitFor(page, () => document.querySelectorAll('#board [data-arrow="pv"]').length >= 1);
    // One arrow per move of the line, up to four: a forced move's line may be that move alone.
    const pvLen = (await stateOf(page)).engine.pv.length;
    const arrows = await page.$$eval('#board [data-arrow="pv"], #board [data-arrow="reply"]', (as) => as.length);
    check('features: the engine\'s line is drawn as arrows on request', ok && arrows === Math.min(pvLen, 4),
          arrows, pvLen);
    await page.uncheck('#arrows');

    step = 'level';
    await page.selectOption('#level', 'beginner');
    ok = await untilState(page, (state) => state.level === 'beginner');
    check('features: the strength level is set on the server', ok, (await stateOf(page)).level);
    await page.selectOption('#level', 'full');
    check('features: the level is set back to full', await untilState(page, (state) => state.level === 'full'));

    step = 'resign';
    await page.click('#resign');
    ok = await waitFor(page, () => /Black resigned/.test(document.querySelector('#status').textContent));
    check('features: resigning ends the game', ok && (await page.textContent('#result')).includes('0-1'),
          await page.textContent('#status'));

    step = 'multipv';
    await page.selectOption('#side', 'both');
    await page.click('#new');
    await waitFor(page, () => document.querySelectorAll('#moves button').length === 0 && !document.querySelector('#result').textContent);
    await page.selectOption('#lines', '3');
    await page.check('#analyse');
    ok = await waitFor(page, () => document.querySelectorAll('#lines-list li').length === 3 &&
                                   !/analysing/.test(document.querySelector('#engine-state').textContent));
    const lines = await page.$$eval('#lines-list li', (ls) => ls.map((l) => l.textContent));
    check('features: analysis shows three engine lines with their scores', ok &&
          new Set(lines.map((l) => l.split(' ')[1])).size === 3 && lines.every((l) => /^[+-]?\d+\.\d\d /.test(l)), lines);
    await page.check('#arrows');
    ok = await waitFor(page, () => document.querySelectorAll('#board [data-arrow="alt"]').length === 2);
    check('features: the other lines\' first moves are drawn too', ok);
    await page.uncheck('#arrows');
    await page.uncheck('#analyse');

    step = 'ballot';
    await page.selectOption('#start', '0');
    await page.click('#new');
    ok = await waitFor(page, () => !document.querySelector('#ballot-name').hidden && document.querySelectorAll('#moves button').length === 3);
    check('features: a game from a ballot names it', ok && /ballot \d{3}: /.test(await page.textContent('#ballot-name')),
          await page.textContent('#ballot-name'), await moveTexts(page), await page.textContent('#error'));
    await page.selectOption('#start', '');

    step = 'database';
    await page.fill('#fen', 'W:W32:BK10,K14');
    await page.click('#setup');
    await waitFor(page, () => document.querySelectorAll('#board [data-piece]').length === 3);
    await page.check('#analyse');
    ok = await waitFor(page, () => !document.querySelector('#database').hidden);
    check('features: the endgame databases\' verdict is shown', ok && /Black wins/.test(await page.textContent('#database')),
          await page.textContent('#database'));
    await page.uncheck('#analyse');

    // One legal move: the engine plays it unsearched, and the panel says so (not "depth 0/0 ·
    // 0 nodes").
    step = 'forced';
    await page.fill('#fen', 'W:WK31:B1,5,26');
    await page.click('#setup');
    await waitFor(page, () => document.querySelectorAll('#board [data-piece]').length === 4);
    await page.check('#analyse');
    ok = await waitFor(page, () => /only legal move/.test(document.querySelector('#engine-line').textContent));
    const forced = await page.textContent('#engine-line');
    check('features: a forced move is named as one, not as a search of depth 0', ok && !/depth|nodes/.test(forced) &&
          /^White: 31x22$/.test(await page.textContent('#pv')), forced, await page.textContent('#pv'));
    await page.uncheck('#analyse');

    step = 'draw';
    await page.selectOption('#side', 'black');
    await page.fill('#fen', 'B:W32:B1,2,3,5,6,K20');
    await page.click('#setup');
    await waitFor(page, () => document.querySelectorAll('#board [data-piece]').length === 7);
    await clickSquare(page, 20);
    await clickSquare(page, 24);
    await waitFor(page, () => document.querySelectorAll('#moves button').length === 2);
    await page.click('#draw');
    ok = await waitFor(page, () => /drawn by agreement/.test(document.querySelector('#status').textContent));
    check('features: the engine, far behind, accepts a draw offer', ok, await page.textContent('#status'));

    step = 'clock';
    await page.selectOption('#clock', '60+1');
    await page.click('#new');
    ok = await waitFor(page, () => !document.querySelector('#clock-bottom').hidden &&
                                   document.querySelector('#clock-bottom').classList.contains('running'));
    const t0 = await page.textContent('#clock-bottom .clock');
    await page.waitForTimeout(1300);
    const t1 = await page.textContent('#clock-bottom .clock');
    check('features: the clock of the side to move (at the bottom, the human) runs', ok && t0 !== t1 &&
          /^Black · You/.test(await page.textContent('#clock-bottom .who')), t0, t1);
    await dragSquare(page, 9, 14);
    ok = await waitFor(page, () => document.querySelectorAll('#moves button').length === 2);
    check('features: after both moves the clocks have been charged and Black runs again', ok &&
          (await stateOf(page)).clock.running === 'black');
    await page.click('#hint');
    await waitFor(page, () => document.querySelector('#board [data-arrow="hint"]') !== null);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(shotDir, 'serve-clock.png') });
    await page.evaluate(async () => {
        const id = sessionStorage.getItem('ponder.game');
        await fetch(`/api/games/${id}`, { method: 'PATCH', headers: { 'Content-Type': 'application/json' },
                                          body: JSON.stringify({ clock: { base: 1 } }) });
    });
    ok = await waitFor(page, () => /lost on time/.test(document.querySelector('#status').textContent));
    check('features: running out of time loses the game', ok, await page.textContent('#status'));
    await page.selectOption('#clock', '');

    step = 'pdn';
    // A file chosen with the file input is read the same way as pasted text.
    await page.setInputFiles('#pdn-file', { name: 'club.pdn', mimeType: 'text/plain', buffer: Buffer.from(PDN) });
    ok = await waitFor(page, () => document.querySelectorAll('#pdn-games option').length === 2 &&
                                   /Club night/.test(document.querySelector('#pdn-text').value));
    check('features: an uploaded PDN file lists its games', ok);
    await page.fill('#pdn-text', '');
    await page.evaluate(() => { document.querySelector('#pdn-games').textContent = ''; });
    await page.fill('#pdn-text', PDN);
    await page.click('#pdn-read');
    ok = await waitFor(page, () => document.querySelectorAll('#pdn-games option').length === 2);
    check('features: a pasted PDN file lists its games', ok && /Alice - Bob, Club night \(1-0, 7 moves\)/.test(
          await page.textContent('#pdn-games option')), await page.textContent('#pdn-games'));
    await page.selectOption('#pdn-games', '1');
    await page.click('#pdn-open');
    ok = await waitFor(page, () => document.querySelectorAll('#moves button').length === 7 &&
                                   /start position/.test(document.querySelector('#review-text').textContent));
    check('features: the game opens at its start with its title', ok &&
          (await page.textContent('#game-title')) === 'Alice - Bob, Club night');
    ok = await waitFor(page, () => document.querySelector('#graph').dataset.known === '8');
    check('features: the evaluation graph covers the game', ok, await page.$eval('#graph', (g) => g.dataset.known));
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const ghost = await waitFor(page, () => document.querySelector('#board .piece.ghost') !== null);
    ok = await waitFor(page, () => /After 15x22/.test(document.querySelector('#review-text').textContent));
    check('features: the arrow keys step through the game; a capture fades the man taken', ok && ghost &&
          (await pieceAt(page, 22)) === 'black' && (await pieceAt(page, 18)) === null);
    // The engine analyses the position shown, and the panel and the bar show that analysis.
    ok = await waitFor(page, () => /depth \d+/.test(document.querySelector('#engine-line').textContent) &&
                                   !/analysing/.test(document.querySelector('#engine-state').textContent));
    let st = await stateOf(page);
    for (let i = 0; i < 100 && st.engine.state !== 'idle'; i++) st = await stateOf(page);
    const evalShown = await page.textContent('#evaltext');
    const expect = `${st.engine.eval > 0 ? '+' : ''}${(st.engine.eval / 100).toFixed(2)}`;
    check('features: reviewing, the engine panel and the bar show the position viewed', ok && st.engine.ply === 3 &&
          st.engine.analysis && (st.engine.winner || evalShown === expect), st.engine.ply, evalShown, expect);
    await page.click('#copy-fen');
    const clip = await page.evaluate(() => navigator.clipboard.readText());
    check('features: the FEN of the position viewed is shown and copied', clip === st.moves[2].fen &&
          (await page.inputValue('#fen-shown')) === clip, clip, st.moves[2].fen);
    await page.check('#arrows');
    await waitFor(page, () => document.querySelectorAll('#board [data-arrow="pv"]').length >= 1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(shotDir, 'serve-review.png') });
    await page.uncheck('#arrows');
    // Clicking the graph jumps to that move.
    const box = await page.$eval('#graph', (g) => { const r = g.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; });
    await page.mouse.click(box[0] + 5 + (box[2] - 10) * (1 / 7), box[1] + box[3] / 2);
    ok = await waitFor(page, () => /After 11-15/.test(document.querySelector('#review-text').textContent));
    check('features: clicking the graph goes to that move', ok, await page.textContent('#review-text'));
    ok = await waitFor(page, () => /depth \d+/.test(document.querySelector('#engine-line').textContent) &&
                                   !/analysing/.test(document.querySelector('#engine-state').textContent));
    st = await stateOf(page);
    check('features: and the engine analyses that position', ok && st.engine.ply === 1, st.engine.ply);
    await page.keyboard.press('End');
    ok = await waitFor(page, () => document.querySelector('#review').hidden);
    check('features: End goes back to the latest position', ok);
    await page.uncheck('#analyse');
    await context.close();
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
