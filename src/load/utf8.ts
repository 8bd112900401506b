/**
 * Data files are UTF-8. Node's decoder turns every byte that is not into
 * U+FFFD without a word, which would publish "Ginger Extract �" on the page,
 * in structured data and in the search index; so a file's bytes are checked
 * before they are decoded, and a bad one is refused at the position of its
 * first bad byte.
 */
import { isUtf8 } from 'node:buffer';
import type { Diagnostic } from '../core/diagnostics.js';
import { createLocator } from './locate.js';
import { severityOf } from '../core/codes.js';

/** Where the first byte that is not UTF-8 is: its offset in the bytes, and line and column as other diagnostics count them (after a byte-order mark). */
export interface BadByte {
  offset: number;
  byte: number;
  line: number;
  column: number;
}

/** The first byte of `bytes` that does not belong to valid UTF-8, or undefined when they all do. */
export function firstBadByte(bytes: Uint8Array): BadByte | undefined {
  if (isUtf8(bytes)) return undefined;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // Every character before the first replacement that stands for bad bytes decoded from valid bytes,
  // so the UTF-8 length of the text before it is its offset in the file. A U+FFFD written as such (EF BF BD) is text.
  for (let i = text.indexOf('\uFFFD'); i >= 0; i = text.indexOf('\uFFFD', i + 1)) {
    const offset = Buffer.byteLength(text.slice(0, i), 'utf8');
    if (bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd) continue;
    const { line, column } = createLocator(text.slice(bom)).positionAt(i - bom);
    return { offset, byte: bytes[offset], line, column };
  }
  return undefined; // not reached: isUtf8 said there is a bad byte
}

/** The diagnostic of a file that is not UTF-8 (see firstBadByte). */
export function invalidUtf8(file: string, bad: BadByte): Diagnostic {
  const hex = `0x${bad.byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return {
    code: 'load/invalid-utf8',
    severity: severityOf('load/invalid-utf8'),
    file,
    pointer: '',
    line: bad.line,
    column: bad.column,
    message:
      `Not UTF-8 text: the byte ${hex} at line ${bad.line}, column ${bad.column} (byte ${bad.offset}) is not valid UTF-8, ` +
      'and would be published as "\uFFFD". Save the file as UTF-8 (a character such as é or ° was probably saved in another encoding).',
  };
}
