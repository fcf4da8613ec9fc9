/// The mailbox: answers from the worker that the page can read without waiting for a message.
///
/// A message from the worker is handled in a task of its own, and on the page that task comes
/// after the frame in which the input was handled: the answer to a slider's input would show one
/// frame later at the earliest. On a cross-origin isolated page (served with COOP/COEP, see the
/// README) the bridge and the worker share this SharedArrayBuffer instead. For a call the worker
/// answered quickly last time, the page waits a few milliseconds for the answer to appear here,
/// so the input that asked for it and the drawing of its answer fall in the same frame.
///
/// Layout: two Int32 slots, then the answer. Slot 0 holds the id of the request whose answer is
/// inside (0: empty; only the worker fills an empty mailbox, only the page empties it), slot 1
/// the answer's length in bytes. The answer is a tagged encoding of what the core returns:
/// numbers, strings, booleans, null, arrays, plain objects and typed arrays.

/// Bytes of a mailbox: answers longer than this go by message.
const MAILBOX_BYTES = 4 << 20;

const ID = 0;
const LENGTH = 1;
const HEADER_BYTES = 16;

const slots = (mailbox: SharedArrayBuffer): Int32Array => new Int32Array(mailbox, 0, 2);

const enum Tag {
  Undefined,
  Null,
  False,
  True,
  Number,
  String,
  Array,
  Object,
  Typed,
}

const TYPED = [
  Float64Array,
  Float32Array,
  Int32Array,
  Uint32Array,
  Int16Array,
  Uint16Array,
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
] as const;

type Typed = InstanceType<(typeof TYPED)[number]>;

/// Raised while encoding an answer that does not fit: it goes by message instead.
const TOO_LONG = new RangeError('the answer does not fit the mailbox');

/// The mailboxes a page can create: only a cross-origin isolated page has SharedArrayBuffer.
export function mailboxAvailable(): boolean {
  return typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated === true;
}

export function createMailbox(): SharedArrayBuffer {
  return new SharedArrayBuffer(MAILBOX_BYTES);
}

/// Worker side: puts `value` in the mailbox as the answer to request `id`. False (and the
/// mailbox untouched) when the mailbox is still full or the value cannot be encoded in it.
export function post(mailbox: SharedArrayBuffer, id: number, value: unknown): boolean {
  const header = slots(mailbox);
  if (Atomics.load(header, ID) !== 0) return false;
  const view = new DataView(mailbox);
  let at = HEADER_BYTES;

  const reserve = (bytes: number): number => {
    const start = at;
    if (start + bytes > mailbox.byteLength) throw TOO_LONG;
    at += bytes;
    return start;
  };
  const tag = (t: Tag): void => view.setUint8(reserve(1), t);
  const count = (n: number): void => view.setUint32(reserve(4), n, true);
  const text = (s: string): void => {
    count(s.length);
    const start = reserve(2 * s.length);
    for (let i = 0; i < s.length; i++) view.setUint16(start + 2 * i, s.charCodeAt(i), true);
  };
  const write = (item: unknown): void => {
    if (item === undefined) tag(Tag.Undefined);
    else if (item === null) tag(Tag.Null);
    else if (typeof item === 'boolean') tag(item ? Tag.True : Tag.False);
    else if (typeof item === 'number') {
      tag(Tag.Number);
      view.setFloat64(reserve(8), item, true);
    } else if (typeof item === 'string') {
      tag(Tag.String);
      text(item);
    } else if (ArrayBuffer.isView(item)) {
      const kind = TYPED.findIndex((type) => item instanceof type);
      if (kind < 0) throw new TypeError('unsupported typed array');
      const typed = item as Typed;
      tag(Tag.Typed);
      view.setUint8(reserve(1), kind);
      count(typed.length);
      at = Math.ceil(at / 8) * 8;
      const start = reserve(typed.byteLength);
      new Uint8Array(mailbox, start, typed.byteLength).set(new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength));
    } else if (Array.isArray(item)) {
      tag(Tag.Array);
      count(item.length);
      for (const element of item) write(element);
    } else if (typeof item === 'object' && Object.getPrototypeOf(item) === Object.prototype) {
      const keys = Object.keys(item);
      tag(Tag.Object);
      count(keys.length);
      for (const key of keys) {
        text(key);
        write((item as Record<string, unknown>)[key]);
      }
    } else {
      throw new TypeError(`a ${typeof item} cannot go through the mailbox`);
    }
  };

  try {
    write(value);
  } catch {
    return false;
  }
  Atomics.store(header, LENGTH, at - HEADER_BYTES);
  // Publishes the answer: the page reads slot 0 atomically before it reads the bytes.
  Atomics.store(header, ID, id);
  return true;
}

/// Page side: waits (spinning) until the mailbox holds the answer to `id` or `until`
/// (a `performance.now()` time) passes; true when it arrived.
export function waitFor(mailbox: SharedArrayBuffer, id: number, until: number): boolean {
  const header = slots(mailbox);
  while (Atomics.load(header, ID) !== id) {
    if (performance.now() > until) return false;
  }
  return true;
}

/// Page side: decodes the answer to `id` (copied out: nothing returned shares memory) and empties
/// the mailbox. Throws when the mailbox holds something else.
export function take(mailbox: SharedArrayBuffer, id: number): unknown {
  const header = slots(mailbox);
  const inside = Atomics.load(header, ID);
  if (inside !== id) throw new Error(`the mailbox holds answer ${inside}, not ${id}`);
  const view = new DataView(mailbox);
  const end = HEADER_BYTES + Atomics.load(header, LENGTH);
  let at = HEADER_BYTES;

  const advance = (bytes: number): number => {
    const start = at;
    if (start + bytes > end) throw new Error('the mailbox answer is truncated');
    at += bytes;
    return start;
  };
  const count = (): number => view.getUint32(advance(4), true);
  const text = (): string => {
    const length = count();
    const start = advance(2 * length);
    const units = new Array<number>(length);
    for (let i = 0; i < length; i++) units[i] = view.getUint16(start + 2 * i, true);
    let out = '';
    for (let i = 0; i < length; i += 4096) out += String.fromCharCode(...units.slice(i, i + 4096));
    return out;
  };
  const read = (): unknown => {
    const t = view.getUint8(advance(1)) as Tag;
    switch (t) {
      case Tag.Undefined:
        return undefined;
      case Tag.Null:
        return null;
      case Tag.False:
        return false;
      case Tag.True:
        return true;
      case Tag.Number:
        return view.getFloat64(advance(8), true);
      case Tag.String:
        return text();
      case Tag.Typed: {
        const type = TYPED[view.getUint8(advance(1))];
        if (!type) throw new Error('the mailbox answer has an unknown array type');
        const length = count();
        at = Math.ceil(at / 8) * 8;
        const bytes = length * type.BYTES_PER_ELEMENT;
        const copy = new Uint8Array(bytes);
        copy.set(new Uint8Array(mailbox, advance(bytes), bytes));
        return new type(copy.buffer);
      }
      case Tag.Array: {
        const length = count();
        const items: unknown[] = [];
        for (let i = 0; i < length; i++) items.push(read());
        return items;
      }
      case Tag.Object: {
        const length = count();
        const object: Record<string, unknown> = {};
        for (let i = 0; i < length; i++) {
          // defineProperty: a key such as "__proto__" stays a plain property.
          Object.defineProperty(object, text(), { value: read(), enumerable: true, writable: true, configurable: true });
        }
        return object;
      }
      default:
        throw new Error(`the mailbox answer has an unknown tag ${String(t)}`);
    }
  };

  try {
    return read();
  } finally {
    Atomics.store(header, ID, 0);
  }
}
