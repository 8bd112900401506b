/**
 * The catalogue snapshot the workers render from (WorkerConfig.snapshot):
 * the catalogue's top-level fields, each v8-serialised on its own and
 * written one after another, each behind its length.
 *
 * One serialisation of the whole catalogue would mean one buffer of its full
 * size on the main thread and another in each worker as it reads the file,
 * both alive when the build's memory peaks. Field by field, the largest
 * buffer is the largest field (docs/PERFORMANCE.md has the sizes).
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';

const LENGTH_BYTES = 4;

export function writeSnapshot(file: string, catalogue: object): void {
  const fd = openSync(file, 'w');
  try {
    for (const field of Object.entries(catalogue)) {
      const bytes = serialize(field);
      const length = Buffer.alloc(LENGTH_BYTES);
      length.writeUInt32LE(bytes.length);
      writeAll(fd, length);
      writeAll(fd, bytes);
    }
  } finally {
    closeSync(fd);
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}

export function readSnapshot<T>(file: string): T {
  const fd = openSync(file, 'r');
  try {
    const result: Record<string, unknown> = {};
    const length = Buffer.alloc(LENGTH_BYTES);
    let position = 0;
    for (;;) {
      const got = readSync(fd, length, 0, LENGTH_BYTES, position);
      if (got === 0) break;
      if (got !== LENGTH_BYTES) throw new Error(`${file}: the catalogue snapshot ends inside a field's length`);
      const bytes = Buffer.allocUnsafe(length.readUInt32LE());
      position += LENGTH_BYTES;
      if (readSync(fd, bytes, 0, bytes.length, position) !== bytes.length) throw new Error(`${file}: the catalogue snapshot ends inside a field`);
      position += bytes.length;
      const [key, value] = deserialize(bytes) as [string, unknown];
      result[key] = value;
    }
    return result as T;
  } finally {
    closeSync(fd);
  }
}
