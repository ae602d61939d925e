// page.js — starts flockbox in the page: the query's or the link's scenario, seed and --set, in the window or as a report run.
'use strict';

/*
 * The page is driven by its address, so that a test, a teacher or a shared link can say what runs:
 *   ?scenario=scripts/NAME.lua   the scenario (default scripts/classic_flock.lua)
 *   &seed=S &steps=N             as --seed and --steps on the desktop
 *   &set=NAME=VALUE              as --set (repeatable)
 *   &report=1                    run N steps headless, as fast as the page can, and write the run's
 *                                summary line (the line `flockbox --headless` prints) into <pre id="report">
 *   #run=...                     a shared link (share.js): its scenario, seed, --set and files (with
 *                                report=1 and steps=N, the link's run is reported)
 * Everything else is the desktop program's: the page builds its command line, and flockbox checks
 * it as it checks its own (a bad value gets the same message and exit status 2).
 */

const FB_ROOT = '/flockbox';                       // the shipped files in the page's file system
const FB_DEFAULT_SCENARIO = 'scripts/classic_flock.lua';

const page = {
  report: false,
  scenario: FB_DEFAULT_SCENARIO,
  argv: [],
  stdout: [],
  stderr: [],
  exitStatus: null,
  link: null,                                      // the decoded shared link, or null
  seed: '1',
  sets: [],
};

function $(id) { return document.getElementById(id); }

function setStatus(text, kind) {
  const el = $('status');
  el.textContent = text;
  el.className = kind || '';
}

// A line of the program's output, in the messages pane (errors in their colour).
function showMessage(text, isError) {
  const pane = $('messages');
  const line = document.createElement('div');
  line.textContent = text;
  if (isError) line.className = 'error';
  pane.appendChild(line);
  while (pane.childNodes.length > 200) pane.removeChild(pane.firstChild);
  pane.scrollTop = pane.scrollHeight;
}

// A path the page accepts for a scenario or a file of a link: relative, inside the shipped tree's
// folders, a .lua file, no "..": anything else is refused before the program sees it.
function isPagePath(path) {
  return typeof path === 'string' && path.length < 200 && /^[A-Za-z0-9_][A-Za-z0-9_./-]*\.lua$/.test(path) &&
         !path.split('/').includes('..');
}

// The command line for this page: the window's, or the report run's.
function commandLine(query, link) {
  const argv = [];
  const scenario = link ? link.scenario : (query.get('scenario') || FB_DEFAULT_SCENARIO);
  if (!isPagePath(scenario)) throw new Error(`scenario=${scenario}: expected a path such as scripts/NAME.lua`);
  page.scenario = scenario;
  page.report = query.get('report') === '1';
  const seed = link ? String(link.seed) : query.get('seed');
  if (seed !== null) argv.push('--seed', seed);
  page.seed = seed === null ? '1' : seed;  // the desktop's default seed
  const sets = link ? link.set : query.getAll('set');
  page.sets = sets;
  for (const s of sets) argv.push('--set', s);
  if (page.report) {
    argv.unshift('--headless', '--steps', query.get('steps') || '1000');
  } else {
    if (query.get('steps') !== null) argv.push('--steps', query.get('steps'));
    const world = $('world').getBoundingClientRect();
    const w = Math.max(320, Math.floor(world.width)), h = Math.max(240, Math.floor(world.height));
    argv.push('--size', `${w}x${h}`, '--csv', 'out/telemetry.csv');
  }
  argv.push(scenario);
  return argv;
}

function finishReport() {
  const report = $('report');
  report.textContent = page.stdout.concat(page.stderr).join('\n');
  report.dataset.exit = String(page.exitStatus === null ? 0 : page.exitStatus);
  report.hidden = false;
  setStatus(page.exitStatus ? `exit status ${page.exitStatus}` : 'report written', page.exitStatus ? 'error' : '');
}

function startEngine() {
  window.Module = {
    canvas: $('canvas'),
    print: (text) => { page.stdout.push(text); if (!page.report) showMessage(text, false); },
    printErr: (text) => { page.stderr.push(text); if (!page.report) showMessage(text, true); },
    onRuntimeInitialized: () => {
      const FS = window.Module.FS;
      FS.chdir(FB_ROOT);
      FS.mkdirTree(FB_ROOT + '/out');
      fbFiles.mount(FS, FB_ROOT, page.link);
      if (!page.report) fbEditor.open(FS, FB_ROOT, page.scenario);
      setStatus(page.report ? 'running…' : page.scenario);
    },
    // main is called here rather than by the runtime, for its exit status: the runtime stays alive
    // after main (the window's loop needs it), so it never calls an onExit.
    noInitialRun: true,
    postRun: [() => {
      page.exitStatus = window.Module.callMain(page.argv);
      if (page.report) {
        finishReport();
        return;
      }
      if (page.exitStatus) {
        setStatus(`${page.scenario}: exit status ${page.exitStatus} (see the messages)`, 'error');
        return;
      }
      // The window's loop draws its first frame at the browser's next animation frame: the time
      // from the start of navigation to it is the page's start-up (docs/web.md, measured by
      // tests/bench/web_speed.js).
      requestAnimationFrame(() => requestAnimationFrame(() => {
        document.body.dataset.firstFrameMs = String(Math.round(performance.now()));
      }));
    }],
    setStatus: () => {},
  };
  const script = document.createElement('script');
  script.src = 'flockbox.js';
  script.onerror = () => setStatus('flockbox.js could not be loaded', 'error');
  document.body.appendChild(script);
}

async function main() {
  const query = new URLSearchParams(location.search);
  try {
    page.link = await fbShare.fromLocation(location.hash);
    page.argv = commandLine(query, page.link);
  } catch (e) {
    setStatus(e.message, 'error');
    showMessage(e.message, true);
    const report = $('report');
    report.textContent = e.message;
    report.dataset.exit = '2';
    report.hidden = query.get('report') !== '1';
    return;
  }
  if (page.report) document.body.classList.add('report');
  fbEditor.init();
  startEngine();
}

main();
