/// The page's own core instance: calls that cost well under a frame (engine/cost.ts) run here,
/// synchronously, so a slider's answer is drawn in the frame that handled the input. Each part is
/// instantiated from the module compiled once (wasm.ts) the first time a call needs it.
import { instantiate, runCalls, type CoreFunction, type Factory, type ModulePart } from './calls';
import type { CoreCall } from './protocol';
import { blockedByPolicy } from './policy';
import { compiledPart } from './wasm';

/// The factories' scripts, loaded when a part is first needed on the page.
const FACTORIES: Record<ModulePart, () => Promise<Factory>> = {
  core: () => import('kernel-lens-wasm/kernel_lens_core.mjs').then((script) => script.default),
  lab: () => import('kernel-lens-wasm/kernel_lens_lab.mjs').then((script) => script.default),
};

export class LocalCore {
  private readonly parts = new Map<ModulePart, Map<string, CoreFunction>>();
  private readonly loading = new Map<ModulePart, Promise<void>>();

  /// Whether every part in `parts` is ready to call.
  has(parts: readonly ModulePart[]): boolean {
    return parts.every((part) => this.parts.has(part));
  }

  /// Compiles (once) and instantiates the part; a failure is retried by the next call.
  load(part: ModulePart): Promise<void> {
    if (this.parts.has(part)) return Promise.resolve();
    let pending = this.loading.get(part);
    if (!pending) {
      pending = Promise.all([compiledPart(part), loadFactory(part)])
        .then(([module, factory]) => instantiate(factory, module))
        .then((functions) => {
          this.parts.set(part, functions);
        })
        .finally(() => this.loading.delete(part));
      this.loading.set(part, pending);
    }
    return pending;
  }

  /// Runs the calls now (every part they need is loaded); throws what the core throws.
  run(calls: readonly CoreCall[]): unknown[] {
    return runCalls(calls, (part) => this.parts.get(part) ?? new Map());
  }

  /// The core's work formula for a call (engine/cost.ts places calls by it); the core part must be
  /// loaded. Throws what the core throws for sizes or a config it refuses.
  readonly work = (fn: string, sizes: readonly number[], config?: unknown): number => {
    const workOf = this.parts.get('core')?.get('workOf');
    if (!workOf) throw new Error('the core is not loaded on the page');
    return workOf(fn, sizes, config) as number;
  };

  /// Forgets the instances (after a trap left one unusable); the next call instantiates anew.
  reset(): void {
    this.parts.clear();
  }
}

async function loadFactory(part: ModulePart): Promise<Factory> {
  try {
    return await FACTORIES[part]();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const name = `the script of the ${part === 'lab' ? 'laboratory' : 'core'} module`;
    // The failed import names its URL: the policy's report names it too.
    const url = /https?:\/\/\S+/.exec(reason)?.[0] ?? '';
    const policy = url ? await blockedByPolicy(url, 'script') : null;
    if (policy) throw new Error(`${name} could not be loaded: ${policy} (docs/embedding.md lists what a host policy must allow)`);
    throw new Error(`${name} could not be loaded (${reason}); change any input to try again.`);
  }
}
