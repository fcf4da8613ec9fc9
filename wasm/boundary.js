// The JavaScript half of the boundary of wasm/common.hpp, linked into both modules with --post-js
// (so every way of loading a module, the factory, kernel_lens.mjs and the page's worker, gets it).
// Once the runtime is up, every function and method the C++ half registered (with its parameter
// names) is replaced by a wrapper that, in this order:
// 1. checks the number of arguments: more than the parameters, or fewer than the required ones
//    (names without a trailing "?"), is a TypeError "<name> takes 6 to 8 arguments (...), got 11";
//    a method of a deleted object is a TypeError too;
// 2. pads missing trailing arguments with undefined, the one place optional arguments are handled
//    (the binding reads undefined as "use the default");
// 3. copies every argument that could run the caller's code into a plain value (plainArgument), so
//    nothing the caller wrote (a getter, a Proxy trap, a `length` override, valueOf) runs while a
//    wasm frame is live: such code throws here, before wasm is entered, and a typed array is read
//    through the built-in length getter, never an override;
// 4. calls the binding, which returns a failure (a kernelLensFailure: TypeError or RangeError, and
//    the message) instead of throwing, and throws that Error now that the wasm frame has returned.
//    The Error is made here, not in wasm, so its stack is the caller's and costs no wasm frames.
// Every wrapper carries `kernelLensParameters` (its parameter names): the mark by which
// kernel_lens.mjs and the page's worker find the exported functions. It also keeps `argCount`, the
// mark embind puts on the functions it registers, for callers that look for that one.
(function (install) {
  if (Module['calledRun']) install();
  else addOnPostRun(install);
})(function installKernelLensBoundary() {
  const TypedArrayPrototype = Object.getPrototypeOf(Float64Array.prototype);
  const typedArrayLength = Object.getOwnPropertyDescriptor(TypedArrayPrototype, 'length').get;
  const typedArrayTag = Object.getOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get;
  const typedArraySet = TypedArrayPrototype.set;
  const hasOwn = Object.prototype.hasOwnProperty;
  const { apply } = Reflect;
  const { isView } = ArrayBuffer;
  const { isArray } = Array;
  const { getPrototypeOf } = Object;

  /// What a binding returns instead of throwing (wasm/common.cpp, error_value).
  class Failure {
    constructor(typeError, message) {
      this.typeError = typeError;
      this.message = message;
    }
  }
  Module['kernelLensFailure'] = Failure;

  /// The core names things in its own terms (the config structs' field names, C's inf and nan);
  /// the API's names for them. Whole words only; text in double quotes (the reader's own text, a
  /// CSV cell, a kernel name) is left as it is.
  const API_NAMES = {
    curve_points: 'curvePoints',
    empty_rows: 'emptyRows',
    feature_scales: 'featureScales',
    inf: 'Infinity',
    key_high: 'keyHigh',
    key_low: 'keyLow',
    key_seed: 'keySeed',
    monte_carlo_seed: 'monteCarloSeed',
    nan: 'NaN',
    observed_seed: 'observedSeed',
    query_high: 'queryHigh',
    query_low: 'queryLow',
  };
  const CORE_WORD = new RegExp(`(-?)\\b(${Object.keys(API_NAMES).join('|')})\\b`, 'g');
  function javascriptMessage(message) {
    return message
      .split(/("[^"]*")/)
      .map((part, i) => (i % 2 === 1 ? part : part.replace(CORE_WORD, (_, minus, word) => (word === 'nan' ? '' : minus) + API_NAMES[word])))
      .join('');
  }

  const describe = (x) => (x === null ? 'null' : isArray(x) ? 'an array' : typeof x);

  /// `value` as a value the binding can read without running the caller's code: primitives and
  /// functions as they are (the binding only asks their type), a Float64Array of the built-in kind
  /// as it is, any other typed array copied into a fresh Float64Array (BigInt arrays refused), an
  /// array copied into a Float64Array (every entry must be a number), a DataView as it is (refused
  /// by the binding), an object copied field by field (`nested`: a field's object becomes an
  /// empty one, since the binding only asks its type).
  function plainArgument(value, name, nested) {
    if (value === null || typeof value !== 'object') return value;
    const tag = apply(typedArrayTag, value, []);
    if (tag !== undefined) {
      if (tag === 'BigInt64Array' || tag === 'BigUint64Array') {
        throw new TypeError(`${name} must hold numbers, not BigInts (a ${tag})`);
      }
      if (tag === 'Float64Array' && getPrototypeOf(value) === Float64Array.prototype && !apply(hasOwn, value, ['length'])) {
        return value;
      }
      const copy = new Float64Array(apply(typedArrayLength, value, []));
      apply(typedArraySet, copy, [value]);
      return copy;
    }
    if (isView(value)) return value;
    if (isArray(value)) {
      const length = value.length;
      if (typeof length !== 'number') throw new TypeError(`${name} must be an array of numbers`);
      const copy = new Float64Array(length);
      for (let i = 0; i < length; i++) {
        const x = value[i];
        if (typeof x !== 'number') throw new TypeError(`${name}[${i}] must be a number, got ${describe(x)}`);
        copy[i] = x;
      }
      return copy;
    }
    const copy = {};
    if (nested) return copy;
    for (const key of Object.keys(value)) {
      Object.defineProperty(copy, key, {
        value: plainArgument(value[key], key, true),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }

  /// An `into` argument (destination arrays the binding writes into): an object whose fields are
  /// Float64Arrays of the built-in kind, passed as they are (a copy would take the results instead
  /// of the caller's arrays), `false` (that result is left out) or undefined (dropped: a new
  /// array); any other field value is a TypeError naming it.
  function destinationArgument(value) {
    if (value === undefined || value === null || typeof value !== 'object' || isArray(value) || isView(value)) return value;
    const copy = {};
    for (const key of Object.keys(value)) {
      const field = value[key];
      if (field === undefined) continue;  // a new array for that result
      if (field === false) {
        copy[key] = false;  // that result left out
        continue;
      }
      const plainFloat64 =
        field !== null && typeof field === 'object' && apply(typedArrayTag, field, []) === 'Float64Array' &&
        getPrototypeOf(field) === Float64Array.prototype && !apply(hasOwn, field, ['length']);
      if (!plainFloat64) throw new TypeError(`into.${key} must be a Float64Array or false`);
      copy[key] = field;
    }
    return copy;
  }
  /// "queries keys d kernel?" -> the names, and how many are required.
  function parseParameters(text) {
    const names = text === '' ? [] : text.split(' ');
    const required = names.filter((name) => !name.endsWith('?')).length;
    return { names, required, plain: names.map((name) => name.replace(/\?$/, '')) };
  }

  function arityError(label, { names, required }, given) {
    if (names.length === 0) return new TypeError(`${label} takes no arguments, got ${given}`);
    const range = required === names.length ? `${required}` : `${required} to ${names.length}`;
    const noun = names.length === 1 ? 'argument' : 'arguments';
    return new TypeError(`${label} takes ${range} ${noun} (${names.join(', ')}), got ${given}`);
  }

  /// Steps 1-4 above for one call of `binding` (with `self` as `this` for a method).
  function invoke(binding, self, label, parameters, args) {
    const given = args.length;
    const count = parameters.names.length;
    if (given > count || given < parameters.required) throw arityError(label, parameters, given);
    const plain = new Array(count);
    for (let i = 0; i < count; i++) {
      const name = parameters.plain[i];
      plain[i] = i >= given ? undefined : name === 'into' ? destinationArgument(args[i]) : plainArgument(args[i], name, false);
    }
    const result = apply(binding, self, plain);
    if (result instanceof Failure) {
      const message = javascriptMessage(result.message);
      throw result.typeError ? new TypeError(message) : new RangeError(message);
    }
    return result;
  }

  function mark(wrapper, name, parameters) {
    Object.defineProperty(wrapper, 'name', { value: name });
    wrapper.kernelLensParameters = parameters.names;
    wrapper.argCount = parameters.names.length;
    return wrapper;
  }

  const signatures = Module['kernelLensSignatures']();
  delete Module['kernelLensSignatures'];
  for (const [owner, name, text] of signatures) {
    const parameters = parseParameters(text);
    if (owner === null) {
      const binding = Module[name];
      Module[name] = mark(function () {
        return invoke(binding, undefined, name, parameters, arguments);
      }, name, parameters);
    } else if (name === 'new') {
      const Class = Module[owner];
      const factory = Module[`${owner}$new`];
      delete Module[`${owner}$new`];
      const Constructor = mark(function () {
        if (new.target === undefined) throw new TypeError(`${owner} must be called with new`);
        return invoke(factory, undefined, `new ${owner}`, parameters, arguments);
      }, owner, parameters);
      Constructor.prototype = Class.prototype;
      Module[owner] = Constructor;
    } else {
      const proto = Module[owner].prototype;
      const method = proto[name];
      const label = `${owner}.${name}`;
      proto[name] = mark(function () {
        if (!(this instanceof Module[owner])) throw new TypeError(`${label} must be called on a ${owner}`);
        if (this.isDeleted()) throw new TypeError(`${label} was called after delete(); create a new ${owner}`);
        return invoke(method, this, label, parameters, arguments);
      }, name, parameters);
    }
  }
});
