// page_test.js — the web page in headless Chromium: report runs against the native program, screenshots, the editor, share links.
'use strict';

/*
 *   node tests/web/page_test.js URL FLOCKBOX SCREENSHOTS
 *     URL          where build-web/site is served (tests/web/run.sh serves it)
 *     FLOCKBOX     the native program, whose report lines the page must give character for character
 *     SCREENSHOTS  the folder the window's screenshots are written to (kept for people to look at)
 *
 * Each check prints PASS or FAIL with what it compared; the exit status is 0 only if all pass.
 * Waits are bounded by generous limits, never measured: the machine may be slow and busy.
 */

const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const wd = require('./webdriver');
const png = require('./png');

const [BASE, FLOCKBOX, SCREENSHOTS] = process.argv.slice(2);
const LOAD_MS = 180000;   // a page load and a report run (a busy machine compiles the wasm slowly)
const RUN_MS = 120000;    // the window reaching a state the test waits for

let failures = 0, passes = 0;
function check(ok, what, detail) {
  if (ok) ++passes; else ++failures;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${what}${detail ? `\n     ${detail.split('\n').join('\n     ')}` : ''}`);
  return ok;
}

// ---- a: report runs, against the native program ----------------------------------------------

// The summary line's wall-clock figures differ from run to run: "0.02 s (5569 steps/s)".
function maskTiming(text) { return text.replace(/[0-9.]+ s \([^()]* steps\/s\)/g, 'X.XX s (Y steps/s)'); }

function native(args) {
  const r = spawnSync(FLOCKBOX, args, { encoding: 'utf8', timeout: 600000 });
  const lines = (r.stdout + r.stderr).split('\n').filter((l, i, all) => !(i === all.length - 1 && l === ''));
  return { text: lines.join('\n'), exit: r.status };
}

// Opens the page (a full load, even when only the fragment changes) and returns its report.
async function pageReport(s, query, hash = '') {
  await s.navigate('about:blank');
  await s.navigate(`${BASE}index.html?${query}${hash}`);
  return s.waitScript(`the report of ?${query}${hash ? ' with a link' : ''} (<pre id="report" data-exit>)`, `
    const r = document.getElementById('report');
    return r && r.dataset.exit !== undefined ? { text: r.textContent, exit: Number(r.dataset.exit),
      status: document.getElementById('status').textContent } : null;`, LOAD_MS);
}

// The native command line of a page query: what page.js's commandLine builds for a report run.
function nativeArgs(scenario, seed, steps, sets = []) {
  const args = ['--headless', '--steps', String(steps), '--seed', String(seed)];
  for (const s of sets) args.push('--set', s);
  args.push(scenario);
  return args;
}

function queryOf(scenario, seed, steps, sets = []) {
  const q = new URLSearchParams({ scenario, seed: String(seed), steps: String(steps), report: '1' });
  for (const s of sets) q.append('set', s);
  return q.toString();
}

const REPORT_CASES = [
  // scenario, seed, steps, what it covers
  ['scripts/classic_flock.lua', 7, 200, 'Lua rules (Parker\'s boids)'],
  ['scripts/crowd_circle.lua', 3, 150, 'ORCA'],
  ['scripts/herd_hills.lua', 5, 200, 'terrain, hooks'],
  ['scripts/predator_prey.lua', 2, 200, 'two species, terrain, hooks'],
  ['scripts/perching_birds.lua', 4, 200, 'hooks (on_step)'],
  ['scripts/vicsek.lua', 9, 200, 'Vicsek noise'],
  ['scripts/flow_maze.lua', 1, 150, 'flow field, obstacles'],
  ['scripts/crowd_corridor.lua', 1, 100, 'ORCA in a corridor'],
  ['scripts/flock_trees.lua', 1, 100, 'obstacles'],
];

async function testReports(s) {
  const matched = [];
  for (const [scenario, seed, steps, covers] of REPORT_CASES) {
    const want = native(nativeArgs(scenario, seed, steps));
    const got = await pageReport(s, queryOf(scenario, seed, steps));
    const ok = check(maskTiming(got.text) === maskTiming(want.text) && got.exit === want.exit,
      `report ${scenario} seed ${seed} steps ${steps} (${covers}) is the native line`,
      `native: ${maskTiming(want.text)} [exit ${want.exit}]\npage:   ${maskTiming(got.text)} [exit ${got.exit}]`);
    if (ok) matched.push(path.basename(scenario));
  }
  console.log(`     scenarios matching native: ${matched.join(', ') || 'none'}`);

  const sets = ['boid.cohesion.divisor=100', 'boid.separation.weight=2'];
  {
    const want = native(nativeArgs('scripts/classic_flock.lua', 3, 150, sets));
    const got = await pageReport(s, queryOf('scripts/classic_flock.lua', 3, 150, sets));
    check(maskTiming(got.text) === maskTiming(want.text) && got.exit === want.exit,
      `report with &set=${sets.join('&set=')} is the native line`,
      `native: ${maskTiming(want.text)}\npage:   ${maskTiming(got.text)}`);
    const plain = native(nativeArgs('scripts/classic_flock.lua', 3, 150));
    check(maskTiming(plain.text) !== maskTiming(want.text), '&set= changes the run', `without: ${maskTiming(plain.text)}`);
  }

  for (const [query, args] of [
    ['scenario=scripts/classic_flock.lua&steps=-3&report=1', ['--headless', '--steps', '-3', 'scripts/classic_flock.lua']],
    ['scenario=scripts/no_such_scenario.lua&steps=10&report=1', ['--headless', '--steps', '10', 'scripts/no_such_scenario.lua']],
  ]) {
    const want = native(args);
    const got = await pageReport(s, query);
    check(got.text === want.text && got.exit === 2 && want.exit === 2,
      `bad input ?${query}: the native message and data-exit="2"`,
      `native: ${want.text} [exit ${want.exit}]\npage:   ${got.text} [exit ${got.exit}]`);
  }
}

// ---- b: screenshots of the window --------------------------------------------------------------

const TELEMETRY = '/flockbox/out/telemetry.csv';

// The telemetry the window writes, as rows of fields (the header first); [] before the first row.
async function telemetry(s) {
  return s.execute(`
    try { return Module.FS.readFile(arguments[0], { encoding: 'utf8' }).trim().split('\\n').map((l) => l.split(',')); }
    catch (e) { return []; }`, TELEMETRY);
}

// The window's run: waits until its telemetry has more than `rows` rows, returns them.
async function waitRows(s, rows, what) {
  return wd.waitFor(`${what}: more than ${rows} telemetry rows in ${TELEMETRY}`, async () => {
    const t = await telemetry(s);
    return t.length > rows + 1 ? t : null;
  }, RUN_MS);
}

async function openWindow(s, query) {
  await s.navigate('about:blank');
  await s.navigate(`${BASE}index.html?${query}`);
  await s.waitScript('the page to open its editor (fbEditor.current())', 'return typeof fbEditor !== "undefined" && fbEditor.current();', LOAD_MS);
}

const near = (p, c, tol) => Math.abs(p[0] - c[0]) <= tol && Math.abs(p[1] - c[1]) <= tol && Math.abs(p[2] - c[2]) <= tol;

// What the canvas shows: colours counted in the world (right of the left dock) and in the dock.
function looksAtCanvas(image, rect) {
  const x0 = Math.round(rect.x), y0 = Math.round(rect.y);
  const w = Math.min(Math.round(rect.width), image.width - x0), h = Math.min(Math.round(rect.height), image.height - y0);
  const dockW = Math.max(290, Math.min(460, Math.floor(w * 0.26)));  // docks.c: the info dock, 26 % (290..460 px)
  const colours = new Set();
  let field = 0, agents = 0, worldPixels = 0, dockText = 0, dockDark = 0;
  for (let y = y0; y < y0 + h; ++y) {
    for (let x = x0; x < x0 + w; ++x) {
      const p = png.pixel(image, x, y);
      colours.add((p[0] << 16) | (p[1] << 8) | p[2]);
      if (x - x0 < dockW) {
        if (Math.min(p[0], p[1], p[2]) >= 150 && Math.max(p[0], p[1], p[2]) - Math.min(p[0], p[1], p[2]) < 40) ++dockText;
        if (Math.max(p[0], p[1], p[2]) < 60) ++dockDark;
      } else {
        ++worldPixels;
        if (near(p, [64, 80, 66], 12)) ++field;           // render.c: FIELD, the world's ground
        if (near(p, [240, 200, 60], 40)) ++agents;       // classic_flock.lua: the boids' colour
      }
    }
  }
  return { w, h, dockW, colours: colours.size, field, agents, worldPixels, dockText, dockDark };
}

async function testScreenshots(s) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  for (const [W, H] of [[1400, 850], [900, 650]]) {
    await s.setWindowRect(W, H);
    await openWindow(s, 'scenario=scripts/classic_flock.lua&seed=1');
    const before = await waitRows(s, 20, `the window at ${W}x${H}`);
    // Two frames apart: the canvas must be moving (the run goes on while we look).
    const shot = await s.screenshot();
    const file = path.join(SCREENSHOTS, `window-${W}x${H}.png`);
    fs.writeFileSync(file, shot);
    const rect = await s.execute(`const r = document.getElementById('canvas').getBoundingClientRect(), d = devicePixelRatio;
      return { x: r.x * d, y: r.y * d, width: r.width * d, height: r.height * d };`);
    const image = png.decode(shot);
    const seen = looksAtCanvas(image, rect);
    const after = await waitRows(s, before.length + 5, `the window at ${W}x${H} going on`);
    check(after.length > before.length, `window ${W}x${H}: the run goes on (${before.length - 1} then ${after.length - 1} rows)`);
    const detail = `${file}: canvas ${seen.w}x${seen.h} at ${Math.round(rect.x)},${Math.round(rect.y)}; ${seen.colours} colours; ` +
      `world: ${seen.field} ground and ${seen.agents} boid-coloured of ${seen.worldPixels} pixels; ` +
      `left dock (${seen.dockW} px): ${seen.dockText} light, ${seen.dockDark} dark pixels`;
    check(seen.colours > 30, `window ${W}x${H}: the screenshot is not blank`, detail);
    check(seen.field > seen.worldPixels * 0.2 && seen.agents > 50, `window ${W}x${H}: the world's ground with boids on it`, detail);
    check(seen.dockText > 300 && seen.dockDark > seen.dockText, `window ${W}x${H}: text in the left dock`, detail);
  }
  // The canvas takes the window's keys (Space pauses and runs), the page's other keys are the page's.
  await s.sendKeys('#canvas', ' ');
  const paused = await wd.waitFor('the telemetry to stop growing after Space on the canvas (5 equal polls)', async () => {
    const counts = [];
    for (let i = 0; i < 5; ++i) { counts.push((await telemetry(s)).length); await wd.sleep(300); }
    return counts.every((c) => c === counts[0]) ? counts[0] : null;
  }, RUN_MS, 0);
  await s.sendKeys('#canvas', ' ');
  const resumed = await waitRows(s, paused, 'Space again on the canvas');
  check(resumed.length > paused, `window: Space on the canvas pauses (at ${paused - 1} rows) and runs again (${resumed.length - 1} rows)`);
}

// ---- c: the editor's round trip -----------------------------------------------------------------

const RULE = 'behaviours/alignment.lua';
const RULE_LINE = 'local k = 1 / (p.divisor * p.step)';

// The mean speed of the boids in the newest telemetry row, and the row count.
async function meanSpeed(s) {
  const t = await telemetry(s);
  if (t.length < 2) return null;
  const col = t[0].indexOf('boid.mean_speed');
  return { speed: Number(t[t.length - 1][col]), rows: t.length - 1 };
}

async function waitSpeed(s, what, ok) {
  return wd.waitFor(what, async () => {
    const m = await meanSpeed(s);
    return m && ok(m.speed) ? m : null;
  }, RUN_MS);
}

// Types `text` over line `line` (0-based) of the editor through its textarea, then Ctrl+S.
async function typeLine(s, line, text) {
  await s.execute(`const cm = fbEditor.editor(); cm.focus();
    cm.setSelection({ line: arguments[0], ch: 0 }, { line: arguments[0], ch: cm.getLine(arguments[0]).length });`, line);
  await s.sendKeys('#code textarea', text);
  await s.sendKeys('#code textarea', '\uE009s\uE000');  // Ctrl+S, the editor's save key
}

async function testEditor(s) {
  await openWindow(s, 'scenario=scripts/classic_flock.lua&seed=1');
  await s.execute('document.getElementById("file").value = arguments[0]; document.getElementById("file").dispatchEvent(new Event("change"));', RULE);
  const line = await s.execute('return fbEditor.editor().getValue().split("\\n").findIndex((l) => l.includes(arguments[0]));', RULE_LINE);
  if (!check(line > 0 && await s.execute('return fbEditor.current();') === RULE, `editor: ${RULE} open, "${RULE_LINE}" on line ${line + 1}`)) return null;
  const start = await waitSpeed(s, 'the boids\' mean speed under 9 (the shipped rules)', (v) => v < 9);
  check(true, `editor: the shipped rules run (mean speed ${start.speed} at row ${start.rows})`);

  // A rule that pushes everyone along x: the boids reach max_speed (15).
  await typeLine(s, line, 'do return 1000, 0 end');
  const fast = await waitSpeed(s, 'the mean speed above 14 after saving "return 1000, 0"', (v) => v > 14);
  check(true, `editor: saving "do return 1000, 0 end" moves the mean speed to ${fast.speed} (row ${fast.rows})`);
  const text = await s.execute('return fbFiles.read(arguments[0]);', RULE);
  check(text.includes('do return 1000, 0 end'), `editor: the saved file in the page's file system has the typed line`);

  // A syntax error: the message names the file and line; the last good rule keeps running.
  const mark = await s.execute('return document.getElementById("messages").textContent.length;');
  await typeLine(s, line, 'do return 1000, 0 end end end');
  const where = `${RULE}:${line + 1}:`;
  const message = await s.waitScript(`"${where}" in #messages`, `
    const t = document.getElementById('messages').textContent.slice(arguments[0]);
    return t.includes(arguments[1]) ? t : null;`, RUN_MS, mark, where);
  check(true, `editor: the broken save is reported at ${where}`, message.trim().split('\n').slice(-3).join('\n'));
  const goesOn = await wd.waitFor('steps after the broken save', async () => {
    const m = await meanSpeed(s);
    return m.rows > fast.rows + 20 ? m : null;
  }, RUN_MS);
  check(goesOn.speed > 14, `editor: the run goes on under the last good rule (row ${goesOn.rows}, mean speed ${goesOn.speed})`);

  // The fix: a brake; the boids fall back to min_speed (6).
  await typeLine(s, line, 'do return -a.vx * 100, -a.vy * 100 end');
  const slow = await waitSpeed(s, 'the mean speed under 6.5 after saving the brake', (v) => v < 6.5);
  check(true, `editor: the fixed save applies (mean speed ${slow.speed} at row ${slow.rows})`);

  // Two saves of the same size in quick succession, the second just after the run took the first:
  // the second must apply too (the page's file system keeps whole seconds of modification time).
  const quick = await s.executeAsync(`const [path, line, first, second, done] = arguments;
    const cm = fbEditor.editor(), reloads = () => (document.getElementById('messages').textContent.match(/reloaded behaviours/g) || []).length;
    const before = reloads();
    cm.replaceRange(first, { line, ch: 0 }, { line, ch: cm.getLine(line).length });
    fbEditor.save();
    const start = Date.now();
    const poll = () => {
      if (reloads() > before) {
        cm.replaceRange(second, { line, ch: 0 }, { line, ch: cm.getLine(line).length });
        fbEditor.save();
        done(Date.now() - start);
      } else if (Date.now() - start > 60000) done(null); else setTimeout(poll, 5);
    };
    poll();`, RULE, line, 'do return -a.vx * 200, -a.vy * 200 end', 'do return  a.vx * 200,  a.vy * 200 end');
  check(quick !== null, 'editor: the first of two quick saves is reloaded');
  const fastAgain = await waitSpeed(s, 'the mean speed above 14 after the second of two quick saves of the same size', (v) => v > 14);
  check(true, `editor: the second quick save applies too (mean speed ${fastAgain.speed} at row ${fastAgain.rows})`);
  return line;
}

// ---- d: share links ---------------------------------------------------------------------------------

function hashOf(text) { const m = /hash ([0-9a-f]{16})/.exec(text); return m ? m[1] : null; }

async function testShare(driver, s) {
  // Page 1 (the editor's session) holds the brake in alignment.lua: its link, by the Share button.
  await s.click('#share');
  const link = await s.waitScript('the Share button to put #run= in the address', 'return location.hash.startsWith("#run=") ? location.href : null;', RUN_MS);
  const [address, fragment] = [link.slice(0, link.indexOf('#')), link.slice(link.indexOf('#'))];
  check(address === `${BASE}index.html` || address === BASE, `share: the link is this page's address (${address}) with #run= (${fragment.length} characters)`);
  const steps = 120;
  const own = await pageReport(s, queryOf('scripts/classic_flock.lua', 1, steps));  // page 1's own files (localStorage)
  const unchanged = native(nativeArgs('scripts/classic_flock.lua', 1, steps));

  const fresh = await driver.session(1200, 800);
  try {
    const shared = await pageReport(fresh, `report=1&steps=${steps}`, fragment);
    check(hashOf(shared.text) !== null && hashOf(shared.text) === hashOf(own.text) && shared.exit === 0,
      'share: the link in a fresh browser gives page 1\'s own report of the same files',
      `link:   ${maskTiming(shared.text)}\npage 1: ${maskTiming(own.text)}`);
    check(hashOf(shared.text) !== hashOf(unchanged.text), 'share: and not the unchanged scenario\'s hash', `unchanged: ${maskTiming(unchanged.text)}`);
    const stored = await fresh.execute('return localStorage.getItem("flockbox.files.v1");');
    check(stored === null, 'share: the fresh browser stored none of the link\'s files');

    // Hostile links: refused with a message, the page still answers.
    for (const [what, hash, want] of [
      ['a truncated link', fragment.slice(0, Math.floor(fragment.length / 2)), /cut short|cannot be read|not JSON/],
      ['a link that is not ours', '#run=abc', /not a flockbox link|cannot be read|not JSON/],
    ]) {
      const got = await pageReport(fresh, `report=1&steps=${steps}`, hash);
      const alive = await fresh.execute('return 6 * 7;');
      check(want.test(got.text) && got.exit === 2 && want.test(got.status) && alive === 42,
        `share: ${what} is refused with a message (data-exit 2, also in #status) and the page answers`,
        `#report: ${got.text}\n#status: ${got.status}`);
    }

    const looping = await fresh.execute(`return fbShare.toLink({ v: 1, flockbox: 'page', scenario: 'scripts/classic_flock.lua',
      seed: '1', set: [], files: { [arguments[0]]: 'return { steer = function(a, p) while true do end end }\\n' } });`, RULE);
    const loopFragment = looping.slice(looping.indexOf('#'));
    const got = await pageReport(fresh, `report=1&steps=${steps}`, loopFragment);
    check(/stopped/.test(got.text) && got.exit !== 0, 'share: a rule that loops forever (report run) is stopped by the watchdog',
      `#report: ${got.text} [exit ${got.exit}]`);
    await fresh.navigate('about:blank');
    await fresh.navigate(`${BASE}index.html${loopFragment}`);
    const said = await fresh.waitScript('"stopped" in #messages of the window with the looping rule', `
      const t = document.getElementById('messages').textContent; return /stopped/.test(t) ? t : null;`, LOAD_MS);
    const alive = await fresh.execute('return 6 * 7;');
    check(alive === 42, 'share: the window with the looping rule says "stopped" and the page answers',
      said.trim().split('\n').slice(-3).join('\n'));
  } finally {
    await fresh.close().catch(() => {});
  }
}

// ---- the run -------------------------------------------------------------------------------------

async function step(name, fn) {
  try {
    return await fn();
  } catch (e) {
    check(false, `${name}: ${e.message}`);
    return null;
  }
}

async function main() {
  if (!BASE || !FLOCKBOX || !SCREENSHOTS) {
    console.error('usage: node tests/web/page_test.js URL FLOCKBOX SCREENSHOTS');
    process.exit(2);
  }
  const driver = await wd.start();
  try {
    const reports = await driver.session(1200, 800);
    await step('report runs', () => testReports(reports));
    await step('screenshots', () => testScreenshots(reports));
    await reports.close();
    const editing = await driver.session(1400, 850);
    const edited = await step('editor', () => testEditor(editing));
    if (edited !== null) await step('share links', () => testShare(driver, editing));
    else check(false, 'share links: not run (they share the editor\'s changed rule)');
  } finally {
    await driver.quit();
  }
  console.log(`${passes} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}

main().catch((e) => {
  console.error(`FAIL ${e.stack || e.message}`);
  process.exit(1);
});
