/// An uploaded file's bytes -> the text the CSV reader checks. UTF-8 (with or without its
/// byte-order mark) and UTF-16 with a byte-order mark are read; other encodings are named, with
/// the advice to save the file as UTF-8, instead of being called binary. Bytes that are neither
/// (an image, a zip) are decoded as UTF-8 with replacements, so the reader refuses them by row
/// and column as binary data.

export type Decoded = { text: string } | { refusal: string };

const SAVE_AS_UTF8 = 'save it as UTF-8 (in a spreadsheet: "CSV UTF-8") and upload it again';

/// UTF-16 code units -> a string, lone surrogates kept as they are (the reader names them).
function utf16(bytes: Uint8Array, littleEndian: boolean): Decoded {
  if (bytes.length % 2 !== 0) return { refusal: `starts like UTF-16 text but has an odd number of bytes (${bytes.length}); ${SAVE_AS_UTF8}` };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const units = new Uint16Array(bytes.length / 2);
  for (let i = 0; i < units.length; i++) units[i] = view.getUint16(2 * i, littleEndian);
  let text = '';
  const chunk = 8192;
  for (let i = 0; i < units.length; i += chunk) text += String.fromCharCode(...units.subarray(i, i + chunk));
  return { text };
}

/// UTF-16 without a byte-order mark: many zero bytes at one parity (the high bytes of ASCII) and
/// almost none at the other. Null for anything else.
function unmarkedUtf16(bytes: Uint8Array): 'little-endian' | 'big-endian' | null {
  const sample = bytes.subarray(0, Math.min(bytes.length, 4096));
  const pairs = Math.floor(sample.length / 2);
  if (pairs < 2) return null;
  let even = 0;
  let odd = 0;
  for (let i = 0; i + 1 < sample.length; i += 2) {
    if (sample[i] === 0) even++;
    if (sample[i + 1] === 0) odd++;
  }
  if (odd >= 0.3 * pairs && even <= 0.05 * pairs) return 'little-endian';
  if (even >= 0.3 * pairs && odd <= 0.05 * pairs) return 'big-endian';
  return null;
}

/// Offset of the first byte that breaks UTF-8, or -1 when the bytes are valid UTF-8.
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k] ?? 0;
      if (next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return i;
    }
    i += length;
  }
  return -1;
}

/// True when the bytes hold control characters other than tab, CR and LF (binary data).
function hasControlBytes(bytes: Uint8Array): boolean {
  return bytes.some((b) => (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f);
}

function hex(byte: number): string {
  return `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

export function decodeUpload(bytes: Uint8Array): Decoded {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { text: new TextDecoder('utf-8').decode(bytes) };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return utf16(bytes.subarray(2), true);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return utf16(bytes.subarray(2), false);
  const unmarked = unmarkedUtf16(bytes);
  if (unmarked) return { refusal: `looks like UTF-16 (${unmarked}) text without a byte-order mark; ${SAVE_AS_UTF8}` };
  const invalid = firstInvalidUtf8(bytes);
  if (invalid < 0) return { text: new TextDecoder('utf-8').decode(bytes) };
  if (!hasControlBytes(bytes)) {
    let row = 1;
    for (let i = 0; i < invalid; i++) if (bytes[i] === 0x0a) row++;
    const byte = bytes[invalid] ?? 0;
    const shown = new TextDecoder('windows-1252').decode(bytes.subarray(invalid, invalid + 1));
    return {
      refusal: `is not UTF-8: byte ${hex(byte)} in row ${row} reads as "${shown}" in Latin-1 (Windows-1252), the encoding the file most likely uses; ${SAVE_AS_UTF8}`,
    };
  }
  // Binary data: the reader names the first replaced byte by row and column.
  return { text: new TextDecoder('utf-8').decode(bytes) };
}
