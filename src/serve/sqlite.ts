/**
 * The SQLite connection the inquiry store needs, on every Node the project
 * supports: Node's built-in `node:sqlite` where the running Node has it
 * without a flag (22.13+, 24), better-sqlite3 only where it does not (20).
 *
 * better-sqlite3 is never loaded on a Node that has `node:sqlite`: version 12
 * built against Node 24's headers aborts the process (its object wrappers
 * register an environment cleanup hook that Node 24 asserts on), and version
 * 13, which fixes that, does not run on Node 20.
 *
 * Both drivers are synchronous: when `run` or `transaction` returns, the
 * write is committed (and, with synchronous=FULL, on disk).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/** Positional values, or one object whose keys name `@name` parameters. */
export type SqlParams = readonly unknown[];

export interface Statement {
  run(...params: SqlParams): void;
  get(...params: SqlParams): unknown;
  all(...params: SqlParams): unknown[];
}

export interface Connection {
  /** 'node:sqlite' or 'better-sqlite3': which driver this Node uses. */
  readonly driver: Driver;
  exec(sql: string): void;
  prepare(sql: string): Statement;
  /** Runs `fn` between BEGIN and COMMIT; ROLLBACK and rethrow when it throws. */
  transaction<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void;
  /** Idempotent. */
  close(): void;
}

export type Driver = 'node:sqlite' | 'better-sqlite3';

export interface OpenOptions {
  readonly?: boolean;
  /** Throw rather than create the file when it does not exist. */
  mustExist?: boolean;
}

/** The subset of `node:sqlite` used here (@types/node 20 does not describe it). */
interface NodeSqlite {
  DatabaseSync: new (
    file: string,
    opts: { readOnly: boolean },
  ) => {
    exec(sql: string): void;
    prepare(sql: string): { run(...p: unknown[]): unknown; get(...p: unknown[]): unknown; all(...p: unknown[]): unknown[] };
    close(): void;
  };
}

let nodeSqlite: NodeSqlite | null | undefined;

/**
 * `node:sqlite` when this Node has it unflagged, else null. Node 22 announces
 * it with an ExperimentalWarning on stderr, which would reach every user of
 * `site serve` and `site inquiries`; exactly that one warning is dropped, for
 * the duration of the load only (Node 24 prints none). Any other warning
 * still goes through.
 */
function loadNodeSqlite(): NodeSqlite | null {
  if (nodeSqlite !== undefined) return nodeSqlite;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning.message;
    if ((type === 'ExperimentalWarning' || (warning as Error).name === 'ExperimentalWarning') && /^SQLite\b/.test(text)) return;
    return (emitWarning as (...a: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    // getBuiltinModule: Node 20.16+/22.3+; undefined for a module this Node lacks or keeps behind a flag.
    nodeSqlite = (process.getBuiltinModule?.('node:sqlite') as NodeSqlite | undefined) ?? null;
  } catch {
    nodeSqlite = null;
  } finally {
    process.emitWarning = emitWarning;
  }
  return nodeSqlite;
}

export function sqliteDriver(): Driver {
  return loadNodeSqlite() ? 'node:sqlite' : 'better-sqlite3';
}

export function openSqlite(file: string, opts: OpenOptions = {}): Connection {
  const readonly = opts.readonly === true;
  const builtin = loadNodeSqlite();
  if (builtin) {
    // DatabaseSync has no "must exist" flag (it creates the file unless read-only).
    if (opts.mustExist && !existsSync(file)) throw new Error(`unable to open database file: ${file} does not exist`);
    return wrapNodeSqlite(new builtin.DatabaseSync(file, { readOnly: readonly }));
  }
  const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  return wrapBetterSqlite3(new Database(file, { readonly, fileMustExist: opts.mustExist === true }));
}

function wrapNodeSqlite(db: InstanceType<NodeSqlite['DatabaseSync']>): Connection {
  let open = true;
  return {
    driver: 'node:sqlite',
    exec: (sql) => db.exec(sql),
    prepare(sql) {
      const st = db.prepare(sql);
      return {
        run: (...p) => void st.run(...p),
        get: (...p) => st.get(...p),
        all: (...p) => st.all(...p),
      };
    },
    transaction:
      (fn) =>
      (...args) => {
        db.exec('BEGIN');
        try {
          fn(...args);
        } catch (e) {
          try {
            db.exec('ROLLBACK');
          } catch {
            // SQLite may already have rolled back (e.g. on SQLITE_FULL): the error worth reporting is `e`.
          }
          throw e;
        }
        db.exec('COMMIT');
      },
    close() {
      if (open) db.close();
      open = false;
    },
  };
}

function wrapBetterSqlite3(db: BetterSqlite3.Database): Connection {
  return {
    driver: 'better-sqlite3',
    exec: (sql) => void db.exec(sql),
    prepare(sql) {
      const st = db.prepare(sql);
      return {
        run: (...p) => void st.run(...p),
        get: (...p) => st.get(...p),
        all: (...p) => st.all(...p),
      };
    },
    transaction: (fn) => db.transaction(fn) as (...args: Parameters<typeof fn>) => void,
    close() {
      if (db.open) db.close();
    },
  };
}
