/// Calls into the core and the messages between the page and the worker that runs heavy ones.
import type { KernelLensModule } from 'kernel-lens-wasm/kernel_lens.mjs';

/// Names of the module's plain functions (classes such as NumpyRandom cannot cross a worker).
export type CoreFunctionName = {
  [K in keyof KernelLensModule]: KernelLensModule[K] extends (...args: never[]) => unknown
    ? K
    : never;
}[keyof KernelLensModule];

type CoreArgs<K extends CoreFunctionName> = Parameters<KernelLensModule[K]>;
type CoreResult<K extends CoreFunctionName> = ReturnType<KernelLensModule[K]>;

/// The fields of a function's object result (none for an array or number result).
type ResultField<K extends CoreFunctionName> = CoreResult<K> extends Float64Array | number | string | unknown[]
  ? never
  : keyof CoreResult<K> & string;

/// One function call: `module[fn](...args)`. With `keep`, only those fields of its object result
/// cross back to the page (see `keeping`).
export interface CoreCall<K extends CoreFunctionName = CoreFunctionName, F extends string = string> {
  fn: K;
  args: CoreArgs<K>;
  keep?: readonly F[];
}

/// What a call answers: its function's result, or the fields it keeps.
type CallResult<C> =
  C extends CoreCall<infer K, infer F>
    ? C extends { keep: readonly string[] }
      ? Pick<CoreResult<K>, F & keyof CoreResult<K>>
      : CoreResult<K>
    : never;

/// The results of a list of calls, position by position.
export type CoreResults<C extends readonly CoreCall[]> = {
  -readonly [I in keyof C]: CallResult<C[I]>;
};

/// A list of calls for the worker to run, in order, as one request.
interface CallRequest {
  id: number;
  calls: readonly CoreCall[];
}

/// Hands the worker a part of the core compiled once by the page (see engine/wasm.ts); it is
/// sent before the first request that needs the part.
export interface ModuleRequest {
  id: -1;
  part: 'core' | 'lab';
  module: WebAssembly.Module;
}

export type PageMessage = CallRequest | ModuleRequest;

export interface ErrorPayload {
  name: string;
  message: string;
}

/// The worker's first message, once its script has run: `lock` names the Web Lock it holds for
/// as long as it lives (null where the browser has no Web Locks), so the page notices a worker
/// that stopped without a word (the browser dropped it).
export interface StartedMessage {
  id: 0;
  started: true;
  lock: string | null;
}

export type CallResponse = { id: number; results: unknown[] } | { id: number; error: ErrorPayload };

/// A part of the core the worker has instantiated (its script fetched, its module instantiated),
/// once, before the answer of the first request that needed it: the page's note on a slow
/// part ends here, not when a long first computation ends.
export interface LoadedMessage {
  id: -1;
  loaded: 'core' | 'lab';
}

export type WorkerMessage = StartedMessage | LoadedMessage | CallResponse;

/// An argument that is the result of an earlier call of the same request, by position:
/// `[call('distanceScores', q, k, 1), call('rowSoftmax', resultOf<Float64Array>(0), 1)]` runs
/// both as one request (one round trip when it goes to the worker).
export interface EarlierResult {
  $result: number;
}

export function resultOf<T>(index: number): T & EarlierResult {
  const placeholder: EarlierResult = { $result: index };
  // Taken as a T by the typed call it is passed to; the engine replaces it before the core sees it.
  return placeholder as T & EarlierResult;
}

/// A typed call description: `call('attention', q, k, v, 1, 1, h)`.
export function call<K extends CoreFunctionName>(fn: K, ...args: CoreArgs<K>): CoreCall<K, never> {
  return { fn, args };
}

/// The call, answered with only the named fields of its result: the others are dropped before
/// the answer crosses to the page. `keeping(call('attention', grid, k, v, 1, 1, h),
/// 'outputs')` draws a 601-point curve without copying its 601 × 60 weights on every frame.
/// (A later call of the same request that takes `resultOf` this one still sees the whole result.)
export function keeping<K extends CoreFunctionName, F extends ResultField<K>>(
  call: CoreCall<K, never>,
  ...fields: [F, ...F[]]
): CoreCall<K, F> & { keep: readonly F[] } {
  return { fn: call.fn, args: call.args, keep: fields };
}
