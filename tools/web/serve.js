// serve.js — a static file server on 127.0.0.1 for the web page (./setup.sh web, and the browser tests).
//
//   node tools/web/serve.js FOLDER [PORT]     PORT 0 (the default) takes any free port
//
// Prints one line, "serving FOLDER at http://127.0.0.1:PORT/", once it listens. Plain static files
// with their types, as GitHub Pages or any host serves them: no special headers (the page needs
// none: it runs on one thread). Node is there already: Debian's emscripten runs on it.
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.data': 'application/octet-stream', '.png': 'image/png', '.json': 'application/json',
  '.lua': 'text/plain; charset=utf-8', '.csv': 'text/csv; charset=utf-8',
};

function main() {
  const folder = process.argv[2];
  const port = Number(process.argv[3] || 0);
  if (!folder || !fs.existsSync(path.join(folder, 'index.html')) || !Number.isInteger(port) || port < 0 || port > 65535) {
    console.error('usage: node tools/web/serve.js FOLDER [PORT]   (FOLDER holds index.html; PORT 0..65535, 0 for any)');
    process.exit(2);
  }
  const root = fs.realpathSync(folder);
  const server = http.createServer((req, res) => {
    let name;
    try {
      name = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch (e) {
      res.writeHead(400).end('bad request');
      return;
    }
    if (name.endsWith('/')) name += 'index.html';
    const file = path.join(root, path.normalize(name));
    if (!file.startsWith(root + path.sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    fs.readFile(file, (err, data) => {
      if (err) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`not found: ${name}`);
        return;
      }
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-cache' });
      res.end(data);
    });
  });
  server.on('error', (e) => {
    console.error(`serve.js: ${e.message}`);
    process.exit(1);
  });
  server.listen(port, '127.0.0.1', () => console.log(`serving ${folder} at http://127.0.0.1:${server.address().port}/`));
}

main();
