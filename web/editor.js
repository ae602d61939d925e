// editor.js — the page's editor: the scenario and its rules in CodeMirror (Debian's libjs-codemirror), saved into the running simulation.
'use strict';

const fbEditor = (() => {
  let cm = null, FS = null, current = null;
  const FOLDERS = ['scripts', 'behaviours'];

  function message(text, isError) { showMessage(text, isError); }

  function fillList(select) {
    const list = $('file');
    list.textContent = '';
    const edited = fbFiles.edited();
    let group = null, folder = null;
    for (const path of fbFiles.list(FOLDERS)) {
      const top = path.slice(0, path.indexOf('/'));
      if (top !== folder) {
        folder = top;
        group = document.createElement('optgroup');
        group.label = folder;
        list.appendChild(group);
      }
      const option = document.createElement('option');
      option.value = path;
      option.textContent = path.slice(top.length + 1) + (path in edited ? ' •' : '');
      group.appendChild(option);
    }
    list.value = select;
  }

  function show(path) {
    const text = fbFiles.read(path);
    if (text === null) {
      message(`${path}: cannot be read`, true);
      return;
    }
    current = path;
    cm.setValue(text);
    cm.clearHistory();
    cm.markClean();
    $('file').value = path;
  }

  function save() {
    if (current === null) return;
    try {
      fbFiles.save(current, cm.getValue());
      cm.markClean();
      message(`saved ${current}: the next step uses it`, false);
      fillList(current);
    } catch (e) {
      message(`${current}: not saved: ${e.message}`, true);
    }
  }

  function revert() {
    if (current === null) return;
    const text = fbFiles.revert(current);
    message(text === null ? `${current}: your file is removed` : `${current}: back to the shipped version`, false);
    fillList(text === null ? $('file').options[0].value : current);
    show($('file').value);
  }

  function newRule() {
    const name = prompt('Name of the new rule (a Lua identifier, e.g. my_rule):', 'my_rule');
    if (name === null) return;
    const answer = window.Module.ccall('fbPage_NewRule', 'string', ['string'], [name]);
    if (answer[0] !== '+') {
      message(`new rule: ${answer.slice(1)}`, true);
      return;
    }
    const path = answer.slice(1).replace(/^\/flockbox\//, '');
    fbFiles.save(path, fbFiles.read(path));
    fillList(path);
    show(path);
  }

  function upload(files) {
    const folder = current ? current.slice(0, current.lastIndexOf('/')) : 'behaviours';
    for (const file of files) {
      const path = `${folder}/${file.name}`;
      if (!isPagePath(path)) {
        message(`${file.name}: not uploaded: a .lua file with a plain name is expected`, true);
        continue;
      }
      file.text().then((text) => {
        fbFiles.save(path, text);
        fillList(path);
        show(path);
        message(`uploaded ${path}`, false);
      });
    }
  }

  async function share() {
    try {
      const link = await fbShare.toLink({
        v: 1, flockbox: 'page', scenario: page.scenario, seed: String(page.seed),
        set: page.sets, files: fbFiles.edited(),
      });
      history.replaceState(null, '', link);
      try { await navigator.clipboard.writeText(link); } catch (e) { /* the address bar has it */ }
      message(`share link (${link.length} characters) in the address bar and the clipboard`, false);
    } catch (e) {
      message(`share: ${e.message}`, true);
    }
  }

  // Builds the editor and wires the buttons; the files come with open(), once the engine has them.
  function init() {
    cm = CodeMirror($('code'), {
      mode: 'lua', lineNumbers: true, matchBrackets: true, indentUnit: 2, tabSize: 2,
      extraKeys: { 'Ctrl-S': save, 'Cmd-S': save },
    });
    $('file').addEventListener('change', (e) => show(e.target.value));
    $('save').addEventListener('click', save);
    $('revert').addEventListener('click', revert);
    $('new-rule').addEventListener('click', newRule);
    $('download').addEventListener('click', () => current && fbFiles.download(current.split('/').pop(), cm.getValue()));
    $('upload').addEventListener('change', (e) => upload(e.target.files));
    $('outputs').addEventListener('click', () => {
      try {
        const names = fbFiles.downloadOutputs();
        message(`downloaded ${names.join(', ')}`, false);
      } catch (e) {
        message(`outputs: ${e.message}`, true);
      }
    });
    $('share').addEventListener('click', share);
    $('toggle-editor').addEventListener('click', () => document.body.classList.toggle('no-editor'));
  }

  function open(fs, rootDir, scenario) {
    FS = fs;
    fillList(scenario);
    show(scenario);
  }

  return { init, open, save, show, editor: () => cm, current: () => current };
})();
