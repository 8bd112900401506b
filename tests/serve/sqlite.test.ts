/**
 * The SQLite driver choice (src/serve/sqlite.ts) on the Node running the
 * tests: node:sqlite where this Node has it unflagged, better-sqlite3 only
 * where it does not, and never both. CI runs this file on Node 20 and 24.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite, sqliteDriver } from '../../src/serve/sqlite.js';
import { openStore } from '../../src/serve/store.js';
import { requireFreshBuild } from '../compiled.js';
import { VALID } from './helpers.js';

const BIN = fileURLToPath(new URL('../../bin/site', import.meta.url));
const STORE_JS = new URL('../../build/src/serve/store.js', import.meta.url).href;

const dir = mkdtempSync(join(tmpdir(), 'site-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const [major, minor] = process.versions.node.split('.').map(Number);
/** node:sqlite without --experimental-sqlite: Node 22.13+ and 23.4+. */
const builtinExpected = major > 23 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);

const inquiry = (message: string) => ({
  inquiry: { type: 'quote' as const, name: VALID.name, email: VALID.email, message },
  page: '/',
  userAgent: 'test',
  ip: '127.0.0.1',
  spam: null,
  notify: false,
});

describe('sqlite driver', () => {
  it(`uses ${builtinExpected ? 'node:sqlite' : 'better-sqlite3'} on Node ${process.versions.node}`, () => {
    expect(sqliteDriver()).toBe(builtinExpected ? 'node:sqlite' : 'better-sqlite3');
  });

  it('loads the better-sqlite3 addon only on a Node without node:sqlite, and prints nothing on stderr', () => {
    requireFreshBuild();
    const data = join(dir, 'probe');
    // A fresh process: the addon, once mapped, would show in /proc/self/maps.
    const script = `
      import { readFileSync } from 'node:fs';
      const { openStore } = await import(${JSON.stringify(STORE_JS)});
      const store = openStore(${JSON.stringify(data)}, { create: true });
      store.add(${JSON.stringify(inquiry('probe'))});
      store.close();
      const ro = openStore(${JSON.stringify(data)}, { readonly: true });
      process.stdout.write(JSON.stringify({ count: ro.count(), addon: readFileSync('/proc/self/maps', 'utf8').includes('better_sqlite3.node') }));
      ro.close();`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ count: 1, addon: !builtinExpected });
  });

  it('`site inquiries list` exits 0 every time, with nothing on stderr', () => {
    requireFreshBuild();
    const data = join(dir, 'cli');
    const store = openStore(data, { create: true });
    store.add(inquiry('five runs'));
    store.close();
    // Node 24 with better-sqlite3 12 aborted (134) in most runs, at exit.
    for (let i = 0; i < 5; i++) {
      const r = spawnSync(process.execPath, [BIN, 'inquiries', 'list', '--data-dir', data], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      expect({ status: r.status, signal: r.signal, stderr: r.stderr }).toEqual({ status: 0, signal: null, stderr: '' });
      expect(r.stdout).toContain(VALID.email);
    }
  });

  it('rolls a transaction back when its function throws, and commits it otherwise', () => {
    const db = openSqlite(join(dir, 'tx.db'));
    db.exec('CREATE TABLE t (n INTEGER NOT NULL) STRICT');
    const insert = db.prepare('INSERT INTO t (n) VALUES (@n)');
    const both = db.transaction((a: number, b: number) => {
      insert.run({ n: a });
      if (b < 0) throw new Error('negative');
      insert.run({ n: b });
    });
    both(1, 2);
    expect(() => both(3, -1)).toThrow('negative');
    expect(db.prepare('SELECT n FROM t ORDER BY n').all()).toEqual([{ n: 1 }, { n: 2 }].map((o) => expect.objectContaining(o)));
    expect((db.prepare('SELECT count(*) AS c FROM t').get() as { c: number }).c).toBe(2);
    db.close();
    db.close();
  });

  it('opens read-only without writing, and refuses a missing file when it must exist', () => {
    const file = join(dir, 'ro.db');
    const rw = openSqlite(file);
    rw.exec('PRAGMA journal_mode = WAL');
    rw.exec('CREATE TABLE t (n INTEGER)');
    rw.prepare('INSERT INTO t VALUES (?)').run(7);
    // Committed on return: a second connection sees the row while the first is still open.
    const ro = openSqlite(file, { readonly: true, mustExist: true });
    expect(ro.prepare('SELECT n FROM t').get()).toEqual(expect.objectContaining({ n: 7 }));
    expect(() => ro.exec('INSERT INTO t VALUES (8)')).toThrow(/readonly|read-only/i);
    ro.close();
    rw.close();
    const missing = join(dir, 'missing.db');
    expect(() => openSqlite(missing, { mustExist: true })).toThrow();
    expect(() => openSqlite(missing, { readonly: true, mustExist: true })).toThrow();
    expect(existsSync(missing)).toBe(false);
  });
});
