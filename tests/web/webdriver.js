// webdriver.js — a minimal W3C WebDriver client on Node's fetch: chromedriver started on a free port, headless Chromium sessions.
'use strict';

/*
 * Just what the page's tests use: start chromedriver, open sessions (each with a fresh profile
 * folder, so no session sees another's localStorage), navigate, run scripts, find elements, type,
 * take screenshots, resize, close. Every wait has a limit and says what it waited for; chromedriver,
 * its browsers and their profile folders are removed on close, at exit and on SIGINT/SIGTERM.
 * Commands are the W3C ones (https://www.w3.org/TR/webdriver2/), sent as JSON over HTTP.
 */

const { spawn } = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';  // the W3C key of an element reference
const COMMAND_TIMEOUT_MS = 120000;                      // one HTTP command (a page load may be slow)

function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = server.address().port;
      server.close(() => resolve(port));
    });
  });
}

// Polls check() (sync or async) until it returns a value other than undefined/false/null, or throws
// with what was awaited once timeoutMs has passed.
async function waitFor(what, check, timeoutMs, intervalMs = 200) {
  const deadline = Date.now() + timeoutMs;
  let last = null;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false && value !== null) return value;
    } catch (e) {
      if (e.fatal) throw e;  // waiting longer cannot help (the process is gone)
      last = e;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (last error: ${last.message})` : ''}`);
    }
    await sleep(intervalMs);
  }
}

class Session {
  constructor(driver, id, profile) {
    this.driver = driver;
    this.id = id;
    this.profile = profile;
  }

  cmd(method, suffix, body) { return this.driver.request(method, `/session/${this.id}${suffix}`, body); }

  navigate(url) { return this.cmd('POST', '/url', { url }); }
  url() { return this.cmd('GET', '/url'); }

  // Runs a function body in the page (arguments as `arguments[i]`), returns its JSON value.
  execute(script, ...args) { return this.cmd('POST', '/execute/sync', { script, args }); }

  // As execute, but the script ends by calling arguments[arguments.length - 1](value).
  executeAsync(script, ...args) { return this.cmd('POST', '/execute/async', { script, args }); }

  // Polls a script until it gives a truthy value; the message names what was awaited.
  waitScript(what, script, timeoutMs, ...args) {
    return waitFor(what, () => this.execute(script, ...args), timeoutMs);
  }

  async find(css) {
    const found = await this.cmd('POST', '/element', { using: 'css selector', value: css });
    return found[ELEMENT];
  }

  async text(css) { return this.cmd('GET', `/element/${await this.find(css)}/text`); }
  async click(css) { return this.cmd('POST', `/element/${await this.find(css)}/click`, {}); }

  // Types text into an element (the canvas, or CodeMirror's hidden textarea); WebDriver's special
  // keys are the Unicode private-use characters \uE000.. (e.g. \uE007 Enter).
  async sendKeys(css, text) { return this.cmd('POST', `/element/${await this.find(css)}/value`, { text }); }

  // Keys pressed on whatever has the focus (W3C actions), for keys the canvas gets through SDL.
  async pressKeys(keys) {
    const actions = [];
    for (const k of keys) actions.push({ type: 'keyDown', value: k }, { type: 'keyUp', value: k });
    await this.cmd('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions }] });
    await this.cmd('DELETE', '/actions');
  }

  async screenshot() { return Buffer.from(await this.cmd('GET', '/screenshot'), 'base64'); }
  async elementScreenshot(css) { return Buffer.from(await this.cmd('GET', `/element/${await this.find(css)}/screenshot`), 'base64'); }

  setWindowRect(width, height) { return this.cmd('POST', '/window/rect', { width, height }); }

  async close() {
    try {
      await this.cmd('DELETE', '');
    } finally {
      this.driver.sessions.delete(this);
      try { fs.rmSync(this.profile, { recursive: true, force: true, maxRetries: 5 }); } catch (e) { /* the browser may still be writing */ }
    }
  }
}

class Driver {
  constructor(proc, port) {
    this.proc = proc;
    this.base = `http://127.0.0.1:${port}`;
    this.sessions = new Set();
    this.log = [];
  }

  async request(method, suffix, body) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), COMMAND_TIMEOUT_MS);
    let res;
    try {
      res = await fetch(this.base + suffix, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: controller.signal,
      });
    } catch (e) {
      throw new Error(`WebDriver ${method} ${suffix}: ${e.name === 'AbortError' ? `no answer in ${COMMAND_TIMEOUT_MS / 1000} s` : e.message}`);
    } finally {
      clearTimeout(timer);
    }
    const json = await res.json().catch(() => ({}));
    if (!res.ok || (json.value && json.value.error)) {
      const v = json.value || {};
      throw new Error(`WebDriver ${method} ${suffix}: ${v.error || res.status}: ${(v.message || '').split('\n')[0]}`);
    }
    return json.value;
  }

  // A new browser with its own fresh profile; width x height is the window's outer size.
  async session(width = 1400, height = 850) {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'fb-chromium-'));
    const args = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--enable-unsafe-swiftshader', '--disable-dev-shm-usage',
      `--user-data-dir=${profile}`, `--window-size=${width},${height}`];
    let value;
    try {
      value = await this.request('POST', '/session', {
        capabilities: { alwaysMatch: { browserName: 'chrome', 'goog:chromeOptions': { binary: '/usr/bin/chromium', args } } },
      });
    } catch (e) {
      fs.rmSync(profile, { recursive: true, force: true });
      throw e;
    }
    const s = new Session(this, value.sessionId, profile);
    this.sessions.add(s);
    await s.cmd('POST', '/timeouts', { script: 120000, pageLoad: 120000, implicit: 0 });
    return s;
  }

  // Closes every session and kills chromedriver; safe to call twice.
  async quit() {
    for (const s of [...this.sessions]) {
      await s.close().catch(() => {});
    }
    this.kill();
  }

  // chromedriver runs in a process group of its own with the browsers it started: the whole group
  // goes, so that no browser outlives a test stopped by a signal.
  kill() {
    if (this.proc && this.proc.exitCode === null) {
      try { process.kill(-this.proc.pid, 'SIGKILL'); } catch (e) { /* already gone */ }
    }
    this.proc = null;
    for (const s of this.sessions) {
      try { fs.rmSync(s.profile, { recursive: true, force: true, maxRetries: 5 }); } catch (e) { /* a dying browser's files */ }
    }
  }
}

const live = new Set();
function killAll() { for (const d of live) d.kill(); }
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    killAll();
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  });
}

// Starts chromedriver on a free port and waits until its /status says ready.
async function start(binary = '/usr/bin/chromedriver') {
  const port = await freePort();
  const proc = spawn(binary, [`--port=${port}`], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const driver = new Driver(proc, port);
  live.add(driver);
  const keep = (chunk) => { driver.log.push(String(chunk)); if (driver.log.length > 200) driver.log.shift(); };
  proc.stdout.on('data', keep);
  proc.stderr.on('data', keep);
  let failed = null;
  proc.on('error', (e) => { failed = e; });
  proc.on('exit', () => live.delete(driver));
  try {
    await waitFor(`chromedriver (${binary}) to answer /status on port ${port}`, async () => {
      const fatal = (text) => Object.assign(new Error(text), { fatal: true });
      if (failed) throw fatal(`cannot start ${binary}: ${failed.message}`);
      if (proc.exitCode !== null) throw fatal(`${binary} exited with status ${proc.exitCode}: ${driver.log.join('')}`);
      const st = await driver.request('GET', '/status');
      return st.ready;
    }, 30000, 100);
  } catch (e) {
    driver.kill();
    throw e;
  }
  return driver;
}

module.exports = { start, waitFor, sleep };
