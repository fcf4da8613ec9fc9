/// Starts the core worker. A page on another origin (the <kernel-lens-figure> element loaded from
/// this site) may not start a worker from this site's URL directly, so it starts a tiny blob
/// worker that imports the real one (the site must then send CORS headers; see README).
import workerUrl from './worker.ts?worker&url';

export function createCoreWorker(): Worker {
  const url = new URL(workerUrl, import.meta.url);
  const options: WorkerOptions = { type: 'module', name: 'kernel-lens-core' };
  if (url.origin === location.origin) return new Worker(url, options);
  const shim = new Blob([`import ${JSON.stringify(url.href)};`], { type: 'text/javascript' });
  return new Worker(URL.createObjectURL(shim), options);
}
