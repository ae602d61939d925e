// share.js — a run as a link: its scenario, seed, --set and the user's files, deflated into the address's fragment.
'use strict';

/*
 * A link is  page-address#run=DATA  where DATA is base64url(deflate-raw(JSON)) of
 *   {"v":1, "flockbox":VERSION, "scenario":PATH, "seed":"S", "set":["NAME=VALUE",...], "files":{PATH:TEXT,...}}
 * The fragment never reaches a server, so the limit is the browsers': we make and accept links of at
 * most 64 KiB of DATA (Chromium takes 2 MB, Firefox about 1 MB, but chat programs and mail cut long
 * links); inflated, at most 1 MiB of text in at most 64 files. A link that is not one of ours, is cut
 * short or breaks these limits is refused with a message, before anything runs.
 */
const fbShare = (() => {
  const PREFIX = '#run=';
  const MAX_LINK = 64 * 1024;
  const MAX_TEXT = 1 << 20;
  const MAX_FILES = 64;

  async function deflate(text) {
    const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  // Inflates at most MAX_TEXT bytes: a small link that inflates to gigabytes is stopped early.
  async function inflate(bytes) {
    const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
    const parts = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > MAX_TEXT) {
        reader.cancel();
        throw new Error('this link holds more than 1 MiB of text; it is not a flockbox link');
      }
      parts.push(value);
    }
    return new TextDecoder('utf-8', { fatal: true }).decode(await new Blob(parts).arrayBuffer());
  }

  function toBase64Url(bytes) {
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  function fromBase64Url(text) {
    if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('the link is damaged (characters that are not base64url)');
    const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = new Uint8Array(s.length);
    for (let i = 0; i < s.length; ++i) bytes[i] = s.charCodeAt(i);
    return bytes;
  }

  // The decoded link, checked field by field; throws with the field's name.
  function checked(run) {
    const bad = (field, why) => { throw new Error(`shared link: "${field}" ${why}`); };
    if (run === null || typeof run !== 'object' || Array.isArray(run)) bad('(whole)', 'is not an object');
    if (run.v !== 1) bad('v', 'is not 1: a link from another version of this page');
    if (!isPagePath(run.scenario)) bad('scenario', 'is not a path such as scripts/NAME.lua');
    if (typeof run.seed !== 'string' || !/^[0-9]{1,19}$/.test(run.seed)) bad('seed', 'is not a whole number');
    if (!Array.isArray(run.set) || run.set.length > 64) bad('set', 'is not a list of at most 64 NAME=VALUE');
    for (const s of run.set) {
      if (typeof s !== 'string' || s.length > 256 || !/^[A-Za-z_][A-Za-z0-9_.]*=/.test(s)) bad('set', `holds "${String(s).slice(0, 40)}"`);
    }
    if (run.files === null || typeof run.files !== 'object' || Array.isArray(run.files)) bad('files', 'is not an object');
    const paths = Object.keys(run.files);
    if (paths.length > MAX_FILES) bad('files', `holds ${paths.length} files (at most ${MAX_FILES})`);
    for (const p of paths) {
      if (!isPagePath(p)) bad('files', `names "${p.slice(0, 60)}", not a path such as behaviours/NAME.lua`);
      if (typeof run.files[p] !== 'string') bad(`files.${p}`, 'is not text');
    }
    return run;
  }

  // The run described by location.hash, or null when the address carries no link.
  async function fromLocation(hash) {
    if (!hash || !hash.startsWith(PREFIX)) return null;
    const data = hash.slice(PREFIX.length);
    if (data.length > MAX_LINK) throw new Error(`shared link: ${data.length} characters of data (at most ${MAX_LINK})`);
    let text;
    try {
      text = await inflate(fromBase64Url(data));
    } catch (e) {
      throw new Error(`shared link: cannot be read (${e.message || e}): it was cut short, or it is not a flockbox link`);
    }
    let run;
    try {
      run = JSON.parse(text);
    } catch (e) {
      throw new Error('shared link: its content is not a flockbox link (not JSON)');
    }
    return checked(run);
  }

  // The address of a run; throws when it would pass MAX_LINK.
  async function toLink(run) {
    const data = toBase64Url(await deflate(JSON.stringify(checked(run))));
    if (data.length > MAX_LINK) throw new Error(`the link would be ${data.length} characters of data (at most ${MAX_LINK}): share fewer or smaller files`);
    return location.origin + location.pathname + PREFIX + data;
  }

  return { fromLocation, toLink, MAX_LINK };
})();
