/// Module loading: each part of the core (calls.ts) is fetched and compiled once per page, here,
/// so that a missing or damaged file gets a message that names it and says what to try. The
/// compiled WebAssembly.Module is instantiated on the page (local.ts) and handed to the worker
/// (bridge.ts), which instantiates the same Module without fetching or compiling anything.
/// A part that failed to load is fetched again by the next call that needs it.
import type { ModulePart } from './calls';
import { blockedByPolicy, wasmBlockedByPolicy } from './policy';
import { WASM_FILES } from './worker-factory';

/// A part of the core that could not be loaded; the message names the file and what to try.
class LoadError extends Error {
  override name = 'Error';
}

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];
const compiled = new Map<ModulePart, Promise<WebAssembly.Module>>();

/// The part's file name, for messages: the last path segment of its URL.
export function wasmFileName(part: ModulePart): string {
  const url = WASM_FILES[part];
  if (url.startsWith('data:')) return `kernel_lens_${part}.wasm (inlined in this page)`;
  return decodeURIComponent(new URL(url).pathname.split('/').pop() || `kernel_lens_${part}.wasm`);
}

/// The part's compiled module (compiled once; a failure is retried by the next call).
export function compiledPart(part: ModulePart): Promise<WebAssembly.Module> {
  let pending = compiled.get(part);
  if (!pending) {
    pending = compile(part);
    compiled.set(part, pending);
    pending.catch(() => compiled.delete(part));
  }
  return pending;
}

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

async function compile(part: ModulePart): Promise<WebAssembly.Module> {
  const url = WASM_FILES[part];
  const file = wasmFileName(part);
  const bytes = url.startsWith('data:') ? decodeDataUrl(url) : await download(url, file);
  const head = new Uint8Array(bytes, 0, Math.min(4, bytes.byteLength));
  if (head.length < 4 || !WASM_MAGIC.every((byte, i) => head[i] === byte)) {
    const start = new TextDecoder().decode(new Uint8Array(bytes, 0, Math.min(24, bytes.byteLength))).replace(/\s+/g, ' ').trim();
    throw new LoadError(
      `${file} is not a WebAssembly file (${bytes.byteLength.toLocaleString('en-US')} bytes` +
        `${start ? `, starting "${start}"` : ''}); the server may have sent a page in its place. ` +
        'Check that the file was published unchanged beside the scripts, then reload the page.',
    );
  }
  try {
    return await WebAssembly.compile(bytes);
  } catch (error) {
    const policy = wasmBlockedByPolicy(error);
    if (policy) throw new LoadError(`${file} could not be compiled: ${policy} (docs/embedding.md lists what a host policy must allow).`);
    throw new LoadError(
      `${file} is truncated or corrupt (${bytes.byteLength.toLocaleString('en-US')} bytes; ${reason(error)}). ` +
        'Reload the page; if this stays, publish the file again from a fresh build (npm run build:web).',
    );
  }
}

async function download(url: string, file: string): Promise<ArrayBuffer> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    const policy = await blockedByPolicy(url, 'connect');
    if (policy) throw new LoadError(`${file} could not be downloaded: ${policy} (docs/embedding.md lists what a host policy must allow).`);
    throw new LoadError(`${file} could not be downloaded (${reason(error)}); check the connection, then change any input to try again.`);
  }
  if (!response.ok) {
    throw new LoadError(
      `${file} could not be loaded: the server answered HTTP ${response.status}` +
        `${response.statusText ? ` ${response.statusText}` : ''} for ${url}. Check that the site's assets ` +
        'folder was published whole (the .wasm files sit beside the scripts), then reload the page.',
    );
  }
  try {
    return await response.arrayBuffer();
  } catch (error) {
    throw new LoadError(`${file} broke off while downloading (${reason(error)}); change any input to try again.`);
  }
}

function decodeDataUrl(url: string): ArrayBuffer {
  const text = atob(url.slice(url.indexOf(',') + 1));
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes.buffer;
}
