/// The standalone file's core worker: bundled into the page as a blob worker with the one-file
/// wasm module, so it starts from file:// and from any upload folder.
import CoreWorker from './worker-single.ts?worker&inline';

export function createCoreWorker(): Worker {
  return new CoreWorker({ name: 'kernel-lens-core' });
}
