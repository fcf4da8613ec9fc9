// The static server of `npm start` and the Lighthouse script compresses as GitHub Pages does:
// gzip for text and wasm when the client accepts it, the file as it is otherwise, and the site
// works served that way (the wasm modules compile from a compressed response). Each file has an
// ETag, and a request naming it gets 304 with no body, as from a static host.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { startServer } from '../../scripts/serve.mjs';
import { distDir, embedPath, openSite, waitForText } from './harness.mjs';

/// The GET response for `path` with or without `Accept-Encoding: gzip`, as raw bytes (Node's
/// http keeps the body as sent; fetch would decompress it).
function raw(url, gzip, headers = {}) {
  return new Promise((done, fail) => {
    request(url, { headers: { ...(gzip ? { 'accept-encoding': 'gzip, deflate, br' } : {}), ...headers } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => done({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', fail)
      .end();
  });
}

test('compress: text and wasm are gzipped for a client that accepts it, sent as they are otherwise', async () => {
  const server = await startServer({ root: distDir, compress: true });
  try {
    const manifest = JSON.parse(await readFile(join(distDir, '.vite/manifest.json'), 'utf8'));
    const wasm = Object.values(manifest).find((entry) => /kernel_lens_core-.*\.wasm$/.test(entry.file)).file;
    for (const path of ['index.html', 'kernel-lens.js', wasm]) {
      const file = await readFile(join(distDir, path));
      const zipped = await raw(server.url + path, true);
      assert.equal(zipped.headers['content-encoding'], 'gzip', path);
      assert.equal(zipped.headers.vary, 'accept-encoding');
      assert.equal(zipped.headers['access-control-allow-origin'], '*');
      assert.equal(Number(zipped.headers['content-length']), zipped.body.length);
      assert.ok(zipped.body.length < file.length, `${path} is smaller compressed`);
      assert.deepEqual(gunzipSync(zipped.body), file);
      const plain = await raw(server.url + path, false);
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.deepEqual(plain.body, file);
    }
  } finally {
    await server.close();
  }
});

test('served compressed, a figure loads its modules and shows the chapter’s prediction', async () => {
  const site = await openSite({ compress: true });
  try {
    const { page, errors } = await site.newPage(embedPath('lookup'));
    await waitForText(page.getByTestId('prediction'), /^2\.7412$/, 30000);
    assert.deepEqual(errors, []);
  } finally {
    await site.close();
  }
});

test('each file has an ETag; a request naming it gets 304 with no body, a changed file a new tag', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kernel-lens-serve-'));
  const server = await startServer({ root: dir, compress: true });
  try {
    await writeFile(join(dir, 'a.js'), 'export const a = 1;\n');
    const first = await raw(`${server.url}a.js`, true);
    assert.equal(first.status, 200);
    const tag = first.headers.etag;
    assert.match(tag, /^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    assert.equal(first.headers['cache-control'], 'no-cache');
    for (const named of [tag, `"other", ${tag}`, tag.slice(2), '*']) {
      const again = await raw(`${server.url}a.js`, true, { 'if-none-match': named });
      assert.equal(again.status, 304, named);
      assert.equal(again.body.length, 0);
      assert.equal(again.headers.etag, tag);
      assert.equal(again.headers['access-control-allow-origin'], '*');
      assert.equal(again.headers.vary, 'accept-encoding');
    }
    assert.equal((await raw(`${server.url}a.js`, true, { 'if-none-match': '"other"' })).status, 200);
    assert.equal((await raw(`${server.url}missing.js`, true, { 'if-none-match': '*' })).status, 404);
    await writeFile(join(dir, 'a.js'), 'export const a = 22;\n');
    const changed = await raw(`${server.url}a.js`, true, { 'if-none-match': tag });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.etag, tag);
    assert.equal(gunzipSync(changed.body).toString(), 'export const a = 22;\n');
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
