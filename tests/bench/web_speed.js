// web_speed.js — the page against the native program in one run: step cost, agents at 60 steps/s, start-up and weight (docs/web.md).
//
//   node tests/bench/web_speed.js [REPEATS]      (from the source root, after ./setup.sh web --build-only
//                                                 and a Release build/flockbox)
//
// What it measures, each in the same run so that the machine's load touches both alike:
// - the seconds of the steps alone, as each summary line reports them (load and compilation left
//   out), for classic_flock (Lua rules) and crowd_circle (ORCA), native on one thread and the page in
//   headless Chromium, alternated, REPEATS times each (default 5); medians, and their ratio;
// - the agents each holds at 60 steps a second: classic_flock with --set boid.count=K for growing K;
// - the time from navigation to the window's first frame (data-first-frame-ms), medians;
// - the site's transfer size, each file gzip-compressed (as a host serving gzip sends it).
// The page runs on one thread, and so does the native program here (--threads 1): a like-for-like
// cost. Wall time inside the summary is the only clock both report; the machine is shared, hence the
// alternation and the medians.
'use strict';
const { execFileSync, spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const webdriver = require('../web/webdriver.js');

const ROOT = path.resolve(__dirname, '../..');
const SITE = path.join(ROOT, 'build-web/site');
const NATIVE = path.join(ROOT, 'build/flockbox');
const REPEATS = Number(process.argv[2] || 5);

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

// "..., N agents, ..., X.XX s (Y steps/s), ..." -> {agents, seconds, stepsPerS}
function parseSummary(line) {
  const m = /(\d+) agents, seed \d+, ([0-9.]+) s \(([0-9]+) steps\/s\)/.exec(line);
  if (!m) throw new Error(`not a summary line: ${line}`);
  return { agents: Number(m[1]), seconds: Number(m[2]), stepsPerS: Number(m[3]) };
}

function native(scenario, steps, sets = []) {
  const args = ['--headless', '--threads', '1', '--steps', String(steps), '--seed', '1'];
  for (const s of sets) args.push('--set', s);
  args.push(scenario);
  return parseSummary(execFileSync(NATIVE, args, { cwd: ROOT, encoding: 'utf8' }).trim());
}

async function page(session, base, scenario, steps, sets = []) {
  const q = new URLSearchParams({ scenario, steps: String(steps), seed: '1', report: '1' });
  for (const s of sets) q.append('set', s);
  await session.navigate(`${base}index.html?${q}`);
  const text = await session.waitScript(`the report of ${scenario}`,
    "const r = document.getElementById('report'); return r && !r.hidden && r.dataset.exit !== undefined ? r.textContent : null;", 600000);
  return parseSummary(text.split('\n')[0]);
}

function serve() {
  return new Promise((resolve, reject) => {
    const server = spawn('node', [path.join(ROOT, 'tools/web/serve.js'), SITE, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    server.stdout.on('data', (d) => {
      const m = /at (http:\S+)/.exec(String(d));
      if (m) resolve({ server, base: m[1] });
    });
    server.on('exit', (code) => reject(new Error(`serve.js exited with ${code}`)));
  });
}

async function stepCost(session, base) {
  const rows = [];
  for (const [scenario, steps] of [['scripts/classic_flock.lua', 2000], ['scripts/crowd_circle.lua', 600]]) {
    const n = [], w = [];
    let agents = 0;
    for (let r = 0; r < REPEATS; ++r) {
      const a = native(scenario, steps);
      const b = await page(session, base, scenario, steps);
      agents = a.agents;
      n.push(a.seconds);
      w.push(b.seconds);
    }
    const perAgentStep = (s) => (s / (steps * agents)) * 1e9;  // ns
    rows.push({ scenario, agents, steps, native: median(n), page: median(w),
                nativeNs: perAgentStep(median(n)), pageNs: perAgentStep(median(w)), ratio: median(w) / median(n) });
  }
  return rows;
}

// The largest count K (of those tried) at which each still makes 60 steps a second, in a world
// grown with K so that the density stays that of the shipped scenario.
async function agentsAt60(session, base) {
  const held = { native: 0, page: 0 };
  for (const k of [1000, 2000, 4000, 8000, 11000, 16000, 22000, 32000, 45000, 64000]) {
    const side = Math.round(200 * Math.sqrt(k / 300));
    const sets = [`boid.count=${k}`, `world.width=${side}`, `world.height=${side}`, `boid.spawn.area=0,0,${side},${side}`];
    const a = native('scripts/classic_flock.lua', 120, sets);
    const b = await page(session, base, 'scripts/classic_flock.lua', 120, sets);
    if (a.stepsPerS >= 60) held.native = k;
    if (b.stepsPerS >= 60) held.page = k;
    if (a.stepsPerS < 60 && b.stepsPerS < 60) break;
  }
  return held;
}

async function startUp(driver, base) {
  const times = [];
  for (let r = 0; r < REPEATS; ++r) {
    const session = await driver.session(1400, 850);  // a fresh profile: nothing cached
    try {
      await session.navigate(`${base}index.html?scenario=scripts/classic_flock.lua`);
      times.push(Number(await session.waitScript('the first frame', 'return document.body.dataset.firstFrameMs || null;', 120000)));
    } finally {
      await session.close();
    }
  }
  return median(times);
}

function weight() {
  let raw = 0, gz = 0;
  const walk = (dir) => {
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name);
      if (fs.statSync(file).isDirectory()) { walk(file); continue; }
      const data = fs.readFileSync(file);
      raw += data.length;
      gz += zlib.gzipSync(data, { level: 9 }).length;
    }
  };
  walk(SITE);
  return { raw, gz };
}

async function main() {
  if (!fs.existsSync(path.join(SITE, 'index.html')) || !fs.existsSync(NATIVE)) {
    console.error('web_speed: needs build-web/site (./setup.sh web --build-only) and build/flockbox (Release)');
    process.exit(2);
  }
  const { server, base } = await serve();
  const driver = await webdriver.start();
  try {
    const session = await driver.session(1400, 850);
    const cost = await stepCost(session, base);
    const held = await agentsAt60(session, base);
    await session.close();
    const first = await startUp(driver, base);
    const w = weight();
    console.log(`| scenario | agents x steps | native s | page s | native ns/agent-step | page ns/agent-step | page / native |`);
    console.log(`| --- | --- | --- | --- | --- | --- | --- |`);
    for (const r of cost) {
      console.log(`| ${r.scenario} | ${r.agents} x ${r.steps} | ${r.native.toFixed(2)} | ${r.page.toFixed(2)} | ` +
                  `${r.nativeNs.toFixed(0)} | ${r.pageNs.toFixed(0)} | ${r.ratio.toFixed(2)} |`);
    }
    console.log(`\nmedians of ${REPEATS}, native on one thread; classic_flock agents held at 60 steps/s: ` +
                `native ${held.native}, page ${held.page} (of 1000, 2000, 4000, 8000, 11000, 16000, 22000, 32000, ... tried)`);
    console.log(`first frame: ${first} ms after navigation (median of ${REPEATS}, fresh profile each)`);
    console.log(`site: ${(w.raw / 1e6).toFixed(2)} MB, ${(w.gz / 1e6).toFixed(2)} MB gzip-compressed`);
  } finally {
    await driver.quit();
    server.kill();
  }
}

main().catch((e) => { console.error(`web_speed: ${e.stack || e}`); process.exit(1); });
