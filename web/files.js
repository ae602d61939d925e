// files.js — the user's files in the page: kept in the browser between visits, written into the engine's file system, downloaded and uploaded.
'use strict';

/*
 * The engine reads the shipped scenarios and rules from /flockbox (preloaded). A file the user saves
 * is written there too, over the shipped one, and kept in localStorage (key flockbox.files.v1, a JSON
 * object path -> text), so it is back at the next visit. A run opened from a shared link uses the
 * shipped files and the link's files only, never this browser's own edits: the link alone says how
 * the run was made.
 */
const fbFiles = (() => {
  const KEY = 'flockbox.files.v1';
  const MAX_STORED = 4 << 20;       // localStorage holds about 5 MB per site
  let FS = null, root = '', shipped = {}, changed = new Set();

  function stored() {
    try {
      const files = JSON.parse(localStorage.getItem(KEY) || '{}');
      const out = {};
      for (const [path, text] of Object.entries(files)) {
        if (isPagePath(path) && typeof text === 'string') out[path] = text;
      }
      return out;
    } catch (e) {
      return {};
    }
  }

  function keep(path, text) {
    const files = stored();
    if (text === null) delete files[path]; else files[path] = text;
    const json = JSON.stringify(files);
    if (json.length > MAX_STORED) throw new Error(`your files would take ${json.length} bytes of this browser's storage (at most ${MAX_STORED})`);
    localStorage.setItem(KEY, json);
  }

  function read(path) {
    try {
      return FS.readFile(`${root}/${path}`, { encoding: 'utf8' });
    } catch (e) {
      return null;
    }
  }

  // The engine sees a save by polling modification time and size, and the page's file system gives
  // whole seconds: a second save of the same size within the same second would go unseen. Each
  // write of a file is stamped a second past its last (the stamp runs ahead during quick saves).
  const stamps = {};
  function write(path, text) {
    const full = `${root}/${path}`;
    FS.mkdirTree(full.slice(0, full.lastIndexOf('/')));
    FS.writeFile(full, text);
    const second = Math.max(Math.floor(Date.now() / 1000), (stamps[path] || 0) + 1);
    stamps[path] = second;
    FS.utime(full, second * 1000, second * 1000);
  }

  // Puts the user's files (or the link's) over the shipped ones, before the program starts.
  function mount(fs, rootDir, link) {
    FS = fs;
    root = rootDir;
    const files = link ? link.files : stored();
    for (const [path, text] of Object.entries(files)) {
      const before = read(path);
      if (before !== null) shipped[path] = before;
      write(path, text);
      changed.add(path);
    }
  }

  // Saves a file as an editor saves one on the desktop: the hot reload sees it at its next poll.
  function save(path, text) {
    if (!(path in shipped) && !changed.has(path)) {
      const before = read(path);
      if (before !== null) shipped[path] = before;
    }
    write(path, text);
    changed.add(path);
    keep(path, text);
  }

  // The shipped version back; a file the user made is removed. Returns the text now there, or null.
  function revert(path) {
    keep(path, null);
    changed.delete(path);
    if (path in shipped) {
      write(path, shipped[path]);
      return shipped[path];
    }
    try { FS.unlink(`${root}/${path}`); } catch (e) { /* already gone */ }
    return null;
  }

  // The .lua files under the folders the page shows, sorted.
  function list(folders) {
    const out = [];
    const walk = (dir) => {
      let names = [];
      try { names = FS.readdir(`${root}/${dir}`); } catch (e) { return; }
      for (const name of names) {
        if (name === '.' || name === '..') continue;
        const path = `${dir}/${name}`;
        const mode = FS.stat(`${root}/${path}`).mode;
        if (FS.isDir(mode)) walk(path);
        else if (name.endsWith('.lua')) out.push(path);
      }
    };
    folders.forEach(walk);
    return out.sort();
  }

  // The files the user changed, as they are now: what a shared link carries.
  function edited() {
    const out = {};
    for (const path of changed) {
      const text = read(path);
      if (text !== null) out[path] = text;
    }
    return out;
  }

  function download(name, data, type) {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([data], { type: type || 'text/plain' }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  // The run's outputs (out/): the telemetry CSV so far, its metadata and a picture of the world,
  // written by the program now (fbPage_WriteOutputs), then downloaded with the window's screenshots.
  function downloadOutputs() {
    const answer = window.Module.ccall('fbPage_WriteOutputs', 'string', [], []);
    if (answer[0] !== '+') throw new Error(answer.slice(1));
    let names = [];
    try { names = FS.readdir(`${root}/out`).filter((n) => n !== '.' && n !== '..'); } catch (e) { /* none yet */ }
    for (const name of names) download(name, FS.readFile(`${root}/out/${name}`), name.endsWith('.png') ? 'image/png' : 'text/plain');
    return names;
  }

  return { mount, save, revert, read, list, edited, download, downloadOutputs };
})();
