/**
 * The guard that keeps every write inside the output folder. The check stage
 * already leaves unsafe route paths out of the build; this is the second line
 * of defence, because a write outside `dist/` is the one mistake a
 * static-site build must never make.
 */
import path from 'node:path';

/** An output file that cannot be written safely; the message names it and why. */
export class UnsafePathError extends Error {
  override name = 'UnsafePathError';
}

/**
 * Checks an output file relative to the output folder (`herb-extract/index.html`):
 * forward slashes, no empty, `.` or `..` segments, no backslash, NUL or control
 * characters. Returns it unchanged.
 */
export function safeOutputFile(file: string): string {
  if (file === '' || file.startsWith('/')) throw new UnsafePathError(`output file "${file}" must be a relative path`);
  for (const s of file.split('/')) {
    if (s === '' || s === '.' || s === '..' || s.includes('\\') || /[\u0000-\u001f\u007f]/.test(s)) {
      throw new UnsafePathError(`output file "${file.replace(/[\u0000-\u001f\u007f]/g, '?')}" has an unsafe segment "${s.replace(/[\u0000-\u001f\u007f]/g, '?')}"`);
    }
  }
  return file;
}

/** Joins a relative output file onto `root`, refusing anything that resolves outside it. */
export function insideRoot(root: string, relative: string): string {
  const absRoot = path.resolve(root);
  const target = path.resolve(absRoot, safeOutputFile(relative));
  if (!target.startsWith(absRoot + path.sep)) {
    throw new UnsafePathError(`"${relative}" resolves outside the output folder`);
  }
  return target;
}
