/// The host page's Content-Security-Policy, as far as it blocked the core: the browser reports each
/// blocked load as a `securitypolicyviolation` event, and a message about a part that failed to
/// load names the directive to change instead of blaming the connection or the file.
/// docs/embedding.md ("Content-Security-Policy and accessibility") lists what a host policy must allow.

interface Violation {
  directive: string;
  blocked: string;
}

const seen: Violation[] = [];
/// The advice already given in the console (once per page for each).
const advised = new Set<string>();

/// `advice` (what the host's policy must allow), also said once in the console: a lecturer whose
/// page blocks the core reads there what to add, beside the browser's own violation report.
function advise(advice: string): string {
  if (!advised.has(advice)) {
    advised.add(advice);
    console.warn(`Kernel Lens: ${advice} (docs/embedding.md, "Content-Security-Policy and accessibility", lists what a host policy must allow).`);
  }
  return advice;
}
let listening = false;

/// Starts recording violations (on the page; a worker has no document and records nothing).
export function watchPolicy(): void {
  if (listening || typeof document === 'undefined') return;
  listening = true;
  document.addEventListener('securitypolicyviolation', (event) => {
    seen.push({ directive: event.effectiveDirective || event.violatedDirective, blocked: event.blockedURI });
    if (seen.length > 50) seen.shift();
  });
}

/// The browser reports a violation in a task of its own, which may come after the failed load's
/// own rejection: two tasks later it has arrived.
const reported = (): Promise<void> =>
  new Promise((done) => setTimeout(() => setTimeout(done, 0), 0));

/// What the host page's policy must allow for `url` to load, when a recorded violation blocked it
/// (`kind` says which directive a block of that load is about); null when none did.
export async function blockedByPolicy(url: string, kind: 'connect' | 'script' | 'worker'): Promise<string | null> {
  if (typeof document === 'undefined') return null;
  await reported();
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    origin = url;
  }
  const found = [...seen].reverse().find(({ directive, blocked }) => {
    if (!directive.startsWith(kind === 'script' ? 'script-src' : kind === 'worker' ? 'worker-src' : 'connect-src') && !directive.startsWith('default-src')) return false;
    return blocked === url || blocked === origin || (blocked !== '' && url.startsWith(blocked)) || (kind === 'worker' && blocked === 'blob');
  });
  if (!found) return null;
  const directive = found.directive.replace(/-(elem|attr)$/, '');
  const source = kind === 'worker' && found.blocked === 'blob' ? 'blob:' : origin;
  return advise(`the page's Content-Security-Policy blocks it (${found.directive}); the page must allow ${source} in ${directive}`);
}

/// The message for a WebAssembly compilation the page's policy refused, or null for another failure.
export function wasmBlockedByPolicy(error: unknown): string | null {
  const text = error instanceof Error ? error.message : String(error);
  if (!/unsafe-eval|Content Security Policy|CSP/i.test(text)) return null;
  return advise("the page's Content-Security-Policy does not allow WebAssembly; the page must add 'wasm-unsafe-eval' to script-src");
}
