#!/usr/bin/env node
// A tiny static server for dist/ (no dependencies). `node scripts/serve.mjs` serves on
// 127.0.0.1:$PORT (default 5173); tests import startServer({ root, port, headers, cors, compress }).
// It behaves like a plain static host (GitHub Pages): files with an ETag (a request that names it
// gets 304 Not Modified), `Access-Control-Allow-Origin: *` (a
// <kernel-lens-figure> on another origin loads the site's module scripts and .wasm files with
// CORS), no cross-origin isolation (the site needs none). `compress: true` gzips text and wasm for a client
// that accepts it, as GitHub Pages and most static hosts do (`npm start` and the Lighthouse
// script; the tests read files as sent, uncompressed).
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gzipped = promisify(gzip);

/// Content types by file extension (the bench's and the host tests' own servers use them too).
export const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

/// What a plain static host with CORS sends with every file.
export const CORS_HEADERS = { 'access-control-allow-origin': '*' };

/// Types a static host compresses (already compressed formats are sent as they are).
const COMPRESSIBLE = /^(text\/|application\/(json|wasm)|image\/svg)/;

/// Whether an If-None-Match header (a list of entity tags, or *) names `etag` (weak comparison).
function matches(header, etag) {
  if (!header) return false;
  const tag = (value) => value.trim().replace(/^W\//, '');
  return header.split(',').some((value) => value.trim() === '*' || tag(value) === tag(etag));
}

/// Serves `root` on 127.0.0.1:`port` (0 = any free port) with CORS_HEADERS unless `cors` is false,
/// extra response `headers`, and gzip (level 6, as hosts use) when `compress` is true and the
/// request accepts it. Resolves to { url, port, close() }.
export async function startServer({ root = join(repoRoot, 'dist'), port = 0, headers: extra = {}, cors = true, compress = false } = {}) {
  const base = resolve(root);
  /// Compressed bodies by file, kept while the file's size and modification time stay the same.
  const compressed = new Map();
  const headers = { ...(cors ? CORS_HEADERS : {}), ...extra };
  const server = createServer(async (request, response) => {
    try {
      const { pathname } = new URL(request.url ?? '/', 'http://localhost');
      let file = normalize(join(base, decodeURIComponent(pathname)));
      if (file !== base && !file.startsWith(base + sep)) {
        response.writeHead(403).end('forbidden');
        return;
      }
      let info = await stat(file).catch(() => null);
      if (info?.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file).catch(() => null);
      }
      if (!info?.isFile()) {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end('not found');
        return;
      }
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      // A validator, as static hosts send: the browser revalidates its copy (no-cache) and keeps it
      // on a 304, with what it compiled from it (V8's code cache of scripts and wasm modules).
      const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
      const compressible = compress && COMPRESSIBLE.test(type);
      if (matches(request.headers['if-none-match'], etag)) {
        response.writeHead(304, { etag, 'cache-control': 'no-cache', ...(compressible ? { vary: 'accept-encoding' } : {}), ...headers }).end();
        return;
      }
      if (compressible && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
        const version = `${info.size}:${info.mtimeMs}`;
        let entry = compressed.get(file);
        if (entry?.version !== version) {
          entry = { version, body: await gzipped(await readFile(file), { level: 6 }) };
          compressed.set(file, entry);
        }
        response.writeHead(200, {
          'content-type': type,
          'content-encoding': 'gzip',
          'content-length': entry.body.length,
          vary: 'accept-encoding',
          'cache-control': 'no-cache',
          etag,
          ...headers,
        });
        response.end(request.method === 'HEAD' ? undefined : entry.body);
        return;
      }
      response.writeHead(200, {
        'content-type': type,
        'content-length': info.size,
        'cache-control': 'no-cache',
        etag,
        ...headers,
      });
      if (request.method === 'HEAD') response.end();
      else createReadStream(file).pipe(response);
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  });
  await new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', done);
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://127.0.0.1:${actualPort}/`,
    port: actualPort,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 5173);
  const { url } = await startServer({ port, compress: true });
  console.log(`Kernel Lens: ${url}`);
}
