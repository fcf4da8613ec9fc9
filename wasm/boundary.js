// The JavaScript half of the boundary of wasm/common.hpp, linked into both modules with --post-js
// (so every way of loading a module, the factory, kernel_lens.mjs and the page's worker, gets it).
// Once the runtime is up, every function and method the C++ half registered (with its parameter
// names) is replaced by a wrapper that, in this order:
// 1. checks the number of arguments: more than the parameters, or fewer than the required ones
//    (names without a trailing "?"), is a TypeError "<name> takes 6 to 8 arguments (...), got 11";
//    a method of a deleted object, or called on something that is not one, is a TypeError too;
// 2. pads missing trailing arguments with undefined, the one place optional arguments are handled
//    (the binding reads undefined as "use the default");
// 3. validates and copies every argument as a JavaScript value (plainArgument), so nothing the
//    caller wrote (a getter, a Proxy trap, a `length` override, valueOf) runs while a wasm frame is
//    live and nothing the binding copies can fail: a typed array whose buffer was detached or
//    resized below it, a list longer than the longest any function accepts (checked before
//    anything is copied), a config or view that is not a plain object, and a getter or trap that
//    throws are TypeErrors / RangeErrors naming the argument ("config.keys could not be read: ...");
// 4. calls the binding, which returns a failure (a kernelLensFailure: TypeError or RangeError, and
//    the message) instead of throwing, and throws that Error now that the wasm frame has returned.
//    The Error is made here, not in wasm, so its stack is the caller's and costs no wasm frames.
//    Should JavaScript code throw inside the binding all the same (a page that replaced a built-in
//    the binding uses, such as %TypedArray%.prototype.set or ArrayBuffer.isView), the wasm stack
//    pointer is put back where it was and the error becomes a TypeError naming the argument the
//    binding was reading ("attention could not read queries: ..."), so no call can leave wasm
//    stack behind.
// Messages are put in JavaScript's terms (key_seed -> keySeed, inf -> Infinity) and quoted text
// longer than 80 characters is cut ("xxxx…" (1000000 characters)).
// Every wrapper carries `kernelLensParameters` (its parameter names): the mark by which
// kernel_lens.mjs and the page's worker find the exported functions. It also keeps `argCount`, the
// mark embind puts on the functions it registers, for callers that look for that one.
(function (install) {
  if (Module['calledRun']) install();
  else addOnPostRun(install);
})(function installKernelLensBoundary() {
  const TypedArrayPrototype = Object.getPrototypeOf(Float64Array.prototype);
  const getter = (object, key) => Object.getOwnPropertyDescriptor(object, key).get;
  const typedArrayLength = getter(TypedArrayPrototype, 'length');
  const typedArrayTag = getter(TypedArrayPrototype, Symbol.toStringTag);
  const typedArrayBuffer = getter(TypedArrayPrototype, 'buffer');
  const typedArraySet = TypedArrayPrototype.set;
  const typedArrayKeys = TypedArrayPrototype.keys;
  const arrayBufferSlice = ArrayBuffer.prototype.slice;
  const objectToString = Object.prototype.toString;
  const hasOwn = Object.prototype.hasOwnProperty;
  const { apply } = Reflect;
  const { isView } = ArrayBuffer;
  const { isArray } = Array;
  const { getPrototypeOf, getOwnPropertyDescriptor, defineProperty, keys: objectKeys } = Object;
  const { RuntimeError } = WebAssembly;
  const stackSave = Module['stackSave'];
  const stackRestore = Module['stackRestore'];
  const readingArgument = Module['kernelLensArgument'];
  const { signatures, maxEntries } = Module['kernelLensBoundary']();
  delete Module['kernelLensBoundary'];
  delete Module['kernelLensArgument'];

  /// For the bindings (wasm/common.hpp): a list's length (-1 for anything but a Float64Array),
  /// target.set(source, offset) and a copy of a view of wasm memory, with the built-ins as they are
  /// now, so that a page that replaces them later changes nothing inside a call.
  Module['kernelLensListLength'] = (value) =>
    value !== null && typeof value === 'object' && apply(typedArrayTag, value, []) === 'Float64Array' ? apply(typedArrayLength, value, []) : -1;
  Module['kernelLensCopy'] = (target, source, offset) => {
    apply(typedArraySet, target, [source, offset]);
  };
  /// (A copy made by the constructor and set, not slice: slice asks the view's constructor, which
  /// a page can replace, what to make.)
  const copyConstructors = { Float64Array, Uint8Array };
  Module['kernelLensSlice'] = (view) => {
    const copy = new copyConstructors[apply(typedArrayTag, view, [])](apply(typedArrayLength, view, []));
    apply(typedArraySet, copy, [view]);
    return copy;
  };

  /// What a binding returns instead of throwing (wasm/common.cpp, error_value).
  class Failure {
    constructor(typeError, message) {
      this.typeError = typeError;
      this.message = message;
    }
  }
  Module['kernelLensFailure'] = Failure;

  /// The errors this file makes (as opposed to the caller's own, which are wrapped).
  const refusals = new WeakSet();
  function refusal(Type, message, cause) {
    const error = cause === undefined ? new Type(message) : new Type(message, { cause });
    refusals.add(error);
    return error;
  }

  /// `text` cut to `limit` code units, never inside a surrogate pair, with its length after it.
  function cut(text, limit, quote = '') {
    if (text.length <= limit) return `${quote}${text}${quote}`;
    const code = text.charCodeAt(limit - 1);
    const end = code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
    return `${quote}${text.slice(0, end)}…${quote} (${text.length} characters)`;
  }

  /// The message of an error thrown by the caller's code or the engine, read without trusting it.
  function messageOf(error) {
    try {
      const message = error !== null && typeof error === 'object' ? error.message : error;
      return cut(String(message), 120);
    } catch (ignored) {
      return 'an exception';
    }
  }

  /// The caller's code threw while `path` was read: a TypeError that names it, the error as cause.
  const unreadable = (path, error) => refusal(TypeError, `${path} could not be read: ${messageOf(error)}`, error);

  /// read() of `path`, with a throwing getter or Proxy trap turned into unreadable(path).
  function guarded(path, read) {
    try {
      return read();
    } catch (error) {
      throw refusals.has(error) ? error : unreadable(path, error);
    }
  }

  /// The core names things in its own terms (the config structs' field names, C's inf and nan);
  /// the API's names for them. Whole words only; text in double quotes (the reader's own text, a
  /// CSV cell, a kernel name) is left as it is, cut when long.
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
  const QUOTED_TEXT = 80;
  function javascriptMessage(message) {
    return message
      .split(/("[^"]*")/)
      .map((part, i) =>
        i % 2 === 1
          ? cut(part.slice(1, -1), QUOTED_TEXT, '"')
          : part.replace(CORE_WORD, (_, minus, word) => (word === 'nan' ? '' : minus) + API_NAMES[word]))
      .join('');
  }

  const article = (noun) => (/^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`);
  /// A value's kind for a message ("an array", "a Map", "a Float64Array"), without running its code.
  function describe(x) {
    if (x === null) return 'null';
    if (typeof x !== 'object') return typeof x;
    try {
      if (isArray(x)) return 'an array';
      const tag = apply(typedArrayTag, x, []);
      if (tag !== undefined) return article(tag);
      const prototype = getPrototypeOf(x);
      const own = (object, key) => {
        const descriptor = object === null ? undefined : getOwnPropertyDescriptor(object, key);
        return descriptor === undefined ? undefined : descriptor.value;
      };
      const constructor = own(prototype, 'constructor');
      const name = typeof constructor === 'function' ? own(constructor, 'name') : undefined;
      return typeof name === 'string' && /^[A-Za-z_$][\w$]{0,40}$/.test(name) ? article(name) : 'an object';
    } catch (ignored) {
      return 'an object';
    }
  }

  /// A plain object: made by {} or Object.create(null) (here or in another realm), not a Map, a
  /// Date, an array or a class instance.
  function isPlainObject(x) {
    const prototype = getPrototypeOf(x);
    if (prototype === null || prototype === Object.prototype) return true;
    return getPrototypeOf(prototype) === null && apply(objectToString, x, []) === '[object Object]';
  }

  /// Why the typed array `view` cannot be read (its buffer was detached, or resized so that the
  /// view lies outside it), or null when it can.
  function viewProblem(view) {
    try {
      apply(typedArrayKeys, view, []);
      return null;
    } catch (ignored) {
      try {
        apply(arrayBufferSlice, apply(typedArrayBuffer, view, []), [0, 0]);
        return 'lies outside its ArrayBuffer, which was resized';
      } catch (ignored) {
        return 'has a detached ArrayBuffer (transferred or closed)';
      }
    }
  }

  function checkLength(path, length) {
    if (length > maxEntries) throw refusal(RangeError, `${path} has ${length} entries; the limit is ${maxEntries}`);
  }

  /// Parameters that take a plain object (a config or a view).
  const OBJECT_PARAMETERS = new Set(['config', 'view']);
  const isPlainFloat64Array = (x, tag) =>
    tag === 'Float64Array' && getPrototypeOf(x) === Float64Array.prototype && !apply(hasOwn, x, ['length']);

  /// `value` as a value the binding can read without running the caller's code: primitives and
  /// functions as they are (the binding only asks their type); a typed array checked (not
  /// detached, not outside its buffer, at most maxEntries numbers, no BigInts) and passed as it is
  /// when it is a Float64Array of the built-in kind, else copied into one; an array checked and
  /// copied into a Float64Array (every entry must be a number); a DataView as it is (refused by
  /// the binding); an object copied field by field (`nested`: a field's object becomes an empty
  /// one, since the binding only asks its type). `path` names it in messages.
  function plainArgument(value, path, nested, objectParameter) {
    if (value === null || typeof value !== 'object') return value;
    const tag = apply(typedArrayTag, value, []);
    if (objectParameter && (tag !== undefined || isView(value) || isArray(value) || !guarded(path, () => isPlainObject(value)))) {
      throw refusal(TypeError, `${path} must be a plain object, got ${describe(value)}`);
    }
    if (tag !== undefined) {
      if (tag === 'BigInt64Array' || tag === 'BigUint64Array') {
        throw refusal(TypeError, `${path} must hold numbers, not BigInts (a ${tag})`);
      }
      const problem = viewProblem(value);
      if (problem !== null) throw refusal(TypeError, `${path} is a ${tag} that ${problem}; pass an array that can be read`);
      const length = apply(typedArrayLength, value, []);
      checkLength(path, length);
      if (isPlainFloat64Array(value, tag)) return value;
      const copy = new Float64Array(length);
      apply(typedArraySet, copy, [value]);
      return copy;
    }
    if (isView(value)) return value;
    if (isArray(value)) {
      const length = guarded(`${path}.length`, () => value.length);
      if (typeof length !== 'number') throw refusal(TypeError, `${path} must be an array of numbers`);
      checkLength(path, length);
      const copy = new Float64Array(length);
      for (let i = 0; i < length; i++) {
        const x = guarded(`${path}[${i}]`, () => value[i]);
        if (typeof x !== 'number') throw refusal(TypeError, `${path}[${i}] must be a number, got ${describe(x)}`);
        copy[i] = x;
      }
      return copy;
    }
    const copy = {};
    if (nested) return copy;
    for (const key of guarded(path, () => objectKeys(value))) {
      const field = guarded(`${path}.${key}`, () => value[key]);
      defineProperty(copy, key, {
        value: plainArgument(field, key, true, false),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }

  /// An `into` argument (destination arrays the binding writes into): an object whose fields are
  /// live Float64Arrays of the built-in kind, passed as they are (a copy would take the results
  /// instead of the caller's arrays), `false` (that result is left out) or undefined (dropped: a
  /// new array); any other field value is a TypeError naming it.
  function destinationArgument(value) {
    if (value === undefined || value === null || typeof value !== 'object' || isArray(value) || isView(value)) return value;
    const copy = {};
    for (const key of guarded('into', () => objectKeys(value))) {
      const path = `into.${key}`;
      const field = guarded(path, () => value[key]);
      if (field === undefined) continue; // a new array for that result
      if (field === false) {
        copy[key] = false; // that result left out
        continue;
      }
      const tag = field !== null && typeof field === 'object' ? apply(typedArrayTag, field, []) : undefined;
      if (!isPlainFloat64Array(field, tag)) throw refusal(TypeError, `${path} must be a Float64Array or false`);
      const problem = viewProblem(field);
      if (problem !== null) throw refusal(TypeError, `${path} is a Float64Array that ${problem}; pass an array that can be written`);
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

  function convert(name, value) {
    try {
      return name === 'into' ? destinationArgument(value) : plainArgument(value, name, false, OBJECT_PARAMETERS.has(name));
    } catch (error) {
      throw refusals.has(error) ? error : unreadable(name, error);
    }
  }

  /// binding(...plain) with `self` as `this`; JavaScript code that throws inside it (a replaced
  /// built-in) leaves no wasm stack behind and becomes a TypeError naming the argument it read.
  function callBinding(binding, self, label, plain) {
    const top = stackSave();
    try {
      return apply(binding, self, plain);
    } catch (error) {
      stackRestore(top);
      if (error instanceof RuntimeError) throw error;
      const argument = readingArgument();
      const what = argument === null ? 'make its result' : `read ${argument}`;
      throw new TypeError(`${label} could not ${what}: ${messageOf(error)}`, { cause: error });
    }
  }

  /// Steps 1-4 above for one call of `binding` (with `self` as `this` for a method).
  function invoke(binding, self, label, parameters, args) {
    const given = args.length;
    const count = parameters.names.length;
    if (given > count || given < parameters.required) throw arityError(label, parameters, given);
    const plain = new Array(count);
    for (let i = 0; i < count; i++) plain[i] = i >= given ? undefined : convert(parameters.plain[i], args[i]);
    const result = callBinding(binding, self, label, plain);
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

  /// The handle methods embind gives every class (delete, isDeleted, clone, ...), guarded like the
  /// bound methods: called on something that is not an instance, or after delete(), a TypeError.
  /// Returns the check: "foreign" (not an instance), "deleted" or "live".
  function guardHandleMethods(owner, prototype) {
    const isDeleted = prototype.isDeleted;
    const state = (self) => {
      try {
        return apply(isDeleted, self, []) ? 'deleted' : 'live';
      } catch (ignored) {
        return 'foreign';
      }
    };
    for (const name of ['isDeleted', 'delete', 'deleteLater', 'clone', 'isAliasOf']) {
      const method = prototype[name];
      if (typeof method !== 'function') continue;
      prototype[name] = function (...args) {
        const now = state(this);
        if (now === 'foreign') throw new TypeError(`${owner}.${name} must be called on a ${owner}`);
        if (now === 'deleted' && name !== 'isDeleted' && name !== 'isAliasOf') {
          throw new TypeError(`${owner}.${name} was called after delete()${name === 'delete' ? '; an object is deleted once' : `; create a new ${owner}`}`);
        }
        return apply(method, this, args);
      };
    }
    return state;
  }

  const instanceChecks = new Map();
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
      if (!instanceChecks.has(owner)) instanceChecks.set(owner, guardHandleMethods(owner, proto));
      const state = instanceChecks.get(owner);
      const method = proto[name];
      const label = `${owner}.${name}`;
      proto[name] = mark(function () {
        const now = state(this);
        if (now === 'foreign') throw new TypeError(`${label} must be called on a ${owner}`);
        if (now === 'deleted') throw new TypeError(`${label} was called after delete(); create a new ${owner}`);
        return invoke(method, this, label, parameters, arguments);
      }, name, parameters);
    }
  }
});
