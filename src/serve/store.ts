/**
 * The inquiry store: one SQLite file in the data directory, outside dist/,
 * through ./sqlite.ts (node:sqlite, or better-sqlite3 on Node 20). Both are
 * synchronous, so when `add` returns the row is committed and the response
 * may say so.
 *
 * Durability: WAL with synchronous=FULL, which fsyncs the WAL on every
 * commit. NORMAL would survive a killed process (the WAL is in the OS page
 * cache) but may lose the last commits on power loss or a kernel crash; a
 * buyer's quote request is worth one fsync.
 */
import { UserError } from '../core/errors.js';
import { randomBytes, createHmac } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Inquiry, InquiryType } from '../core/inquiry.js';
import { openSqlite } from './sqlite.js';

export const STORE_FILE = 'inquiries.db';
const SCHEMA_VERSION = 1;

export interface InquiryRecord {
  id: string;
  /** ISO 8601, UTC, milliseconds. */
  receivedAt: string;
  type: InquiryType;
  name: string;
  email: string;
  company: string;
  country: string;
  phone: string;
  product: string;
  quantity: string;
  message: string;
  /** The route path the form was on, or '' when the form did not say or said something invalid. */
  page: string;
  userAgent: string;
  /** HMAC-SHA256 of the client IP with this install's salt: lets abuse be correlated, never reversed. */
  ipHash: string;
  /** Null for real inquiries; why it was flagged otherwise ('honeypot'). */
  spam: string | null;
  /** E-mail notification: 'none' (not configured), 'pending', 'sent' or 'failed'. */
  notification: 'none' | 'pending' | 'sent' | 'failed';
}

export interface NewInquiry {
  inquiry: Inquiry;
  page: string;
  userAgent: string;
  ip: string;
  spam: string | null;
  /** Queue an e-mail notification in the same transaction. */
  notify: boolean;
  now?: Date;
}

export interface OutboxItem {
  inquiryId: string;
  attempts: number;
}

export interface ListOptions {
  limit?: number;
  includeSpam?: boolean;
  /** 'desc' (newest first, default) or 'asc'. */
  order?: 'asc' | 'desc';
}

export interface InquiryStore {
  readonly file: string;
  add(input: NewInquiry): InquiryRecord;
  /** Adds several inquiries in one transaction: one fsync for all of them (group commit). */
  addMany(inputs: readonly NewInquiry[]): InquiryRecord[];
  get(id: string): InquiryRecord | null;
  list(opts?: ListOptions): InquiryRecord[];
  count(opts?: { includeSpam?: boolean }): number;
  /** Notifications whose next attempt is due. */
  dueNotifications(nowMs: number, limit: number): OutboxItem[];
  markSent(inquiryId: string, now?: Date): void;
  /** Records a failed attempt; `nextAttemptMs` null gives up for good. */
  markAttemptFailed(inquiryId: string, error: string, nextAttemptMs: number | null, now?: Date): void;
  close(): void;
}

const DDL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS inquiries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  received_at TEXT NOT NULL,
  type TEXT NOT NULL,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  company TEXT NOT NULL DEFAULT '',
  country TEXT NOT NULL DEFAULT '',
  phone TEXT NOT NULL DEFAULT '',
  product TEXT NOT NULL DEFAULT '',
  quantity TEXT NOT NULL DEFAULT '',
  message TEXT NOT NULL,
  page TEXT NOT NULL DEFAULT '',
  user_agent TEXT NOT NULL DEFAULT '',
  ip_hash TEXT NOT NULL DEFAULT '',
  spam TEXT
) STRICT;
CREATE TABLE IF NOT EXISTS outbox (
  inquiry_id TEXT PRIMARY KEY REFERENCES inquiries(id),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  last_error TEXT,
  sent_at TEXT,
  failed_at TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL;
`;

interface Row {
  id: string;
  received_at: string;
  type: string;
  name: string;
  email: string;
  company: string;
  country: string;
  phone: string;
  product: string;
  quantity: string;
  message: string;
  page: string;
  user_agent: string;
  ip_hash: string;
  spam: string | null;
  attempts: number | null;
  sent_at: string | null;
  failed_at: string | null;
}

const SELECT = `SELECT i.*, o.attempts, o.sent_at, o.failed_at FROM inquiries i LEFT JOIN outbox o ON o.inquiry_id = i.id`;

function toRecord(r: Row): InquiryRecord {
  return {
    id: r.id,
    receivedAt: r.received_at,
    type: r.type as InquiryType,
    name: r.name,
    email: r.email,
    company: r.company,
    country: r.country,
    phone: r.phone,
    product: r.product,
    quantity: r.quantity,
    message: r.message,
    page: r.page,
    userAgent: r.user_agent,
    ipHash: r.ip_hash,
    spam: r.spam,
    notification: r.attempts === null ? 'none' : r.sent_at ? 'sent' : r.failed_at ? 'failed' : 'pending',
  };
}

/** Sortable, unguessable ids: time in base 36, then 40 random bits. Sequential ids would tell anyone how many inquiries came in. */
export function newInquiryId(now: number): string {
  return now.toString(36).padStart(9, '0') + randomBytes(5).toString('hex');
}

export class StoreMissingError extends UserError {
  override name = 'StoreMissingError';
}

/**
 * Opens (and with `create`, creates) the store in `dataDir`. Read-only
 * openers (the `inquiries` command) may run beside a serving process: WAL
 * lets readers see every committed row without blocking the writer.
 */
export function openStore(dataDir: string, opts: { create?: boolean; readonly?: boolean } = {}): InquiryStore {
  const dir = resolve(dataDir);
  const file = join(dir, STORE_FILE);
  if (!existsSync(file)) {
    if (!opts.create) throw new StoreMissingError(`no inquiry store at ${file} (it is created by \`site serve --data-dir ${dataDir}\`)`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }
  const created = !existsSync(file);
  const db = openSqlite(file, { readonly: opts.readonly === true, mustExist: !opts.create });
  // Names, e-mail addresses and phone numbers: readable by the serving user only (SQLite gives -wal and -shm the same mode).
  if (created) chmodSync(file, 0o600);
  db.exec('PRAGMA busy_timeout = 5000');
  if (!opts.readonly) {
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
    if (version > SCHEMA_VERSION) {
      db.close();
      throw new Error(`${file} was written by a newer version of site (schema ${version}, this one knows ${SCHEMA_VERSION})`);
    }
    db.exec(DDL);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.prepare(`INSERT OR IGNORE INTO meta (key, value) VALUES ('ip_salt', ?)`).run(randomBytes(32).toString('hex'));
  }
  const salt = opts.readonly ? '' : (db.prepare(`SELECT value FROM meta WHERE key = 'ip_salt'`).get() as { value: string }).value;
  const hashIp = (ip: string) => createHmac('sha256', salt).update(ip).digest('hex').slice(0, 32);

  const insert = opts.readonly
    ? null
    : db.prepare(
        `INSERT INTO inquiries (id, received_at, type, name, email, company, country, phone, product, quantity, message, page, user_agent, ip_hash, spam)
         VALUES (@id, @received_at, @type, @name, @email, @company, @country, @phone, @product, @quantity, @message, @page, @user_agent, @ip_hash, @spam)`,
      );
  const enqueue = opts.readonly ? null : db.prepare(`INSERT INTO outbox (inquiry_id, next_attempt_at) VALUES (?, ?)`);
  const addTx = db.transaction((rows: Array<{ row: Record<string, unknown>; notifyAt: number | null }>) => {
    for (const { row, notifyAt } of rows) {
      insert!.run(row);
      if (notifyAt !== null) enqueue!.run(row.id, notifyAt);
    }
  });
  const byId = db.prepare(`${SELECT} WHERE i.id = ?`);

  const toRow = (input: NewInquiry) => {
    const now = input.now ?? new Date();
    const i = input.inquiry;
    const row = {
      id: newInquiryId(now.getTime()),
      received_at: now.toISOString(),
      type: i.type,
      name: i.name,
      email: i.email,
      company: i.company ?? '',
      country: i.country ?? '',
      phone: i.phone ?? '',
      product: i.product ?? '',
      quantity: i.quantity ?? '',
      message: i.message,
      page: input.page,
      user_agent: input.userAgent.slice(0, 500),
      ip_hash: input.ip ? hashIp(input.ip) : '',
      spam: input.spam,
    };
    return { row, notifyAt: input.notify && input.spam === null ? now.getTime() : null };
  };

  function addMany(inputs: readonly NewInquiry[]): InquiryRecord[] {
    const rows = inputs.map(toRow);
    addTx(rows);
    return rows.map(({ row }) => toRecord(byId.get(row.id) as Row));
  }

  return {
    file,
    add: (input) => addMany([input])[0],
    addMany,
    get(id) {
      const r = byId.get(id) as Row | undefined;
      return r ? toRecord(r) : null;
    },
    list(opts = {}) {
      const where = opts.includeSpam ? '' : 'WHERE i.spam IS NULL';
      const order = opts.order === 'asc' ? 'ASC' : 'DESC';
      const limit = opts.limit !== undefined && opts.limit > 0 ? `LIMIT ${Math.floor(opts.limit)}` : '';
      return (db.prepare(`${SELECT} ${where} ORDER BY i.seq ${order} ${limit}`).all() as Row[]).map(toRecord);
    },
    count(opts = {}) {
      const where = opts.includeSpam ? '' : 'WHERE spam IS NULL';
      return (db.prepare(`SELECT count(*) AS n FROM inquiries ${where}`).get() as { n: number }).n;
    },
    dueNotifications(nowMs, limit) {
      return db
        .prepare(
          `SELECT inquiry_id AS inquiryId, attempts FROM outbox
             WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?`,
        )
        .all(nowMs, limit) as OutboxItem[];
    },
    markSent(inquiryId, now = new Date()) {
      db.prepare(`UPDATE outbox SET sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE inquiry_id = ?`).run(now.toISOString(), inquiryId);
    },
    markAttemptFailed(inquiryId, error, nextAttemptMs, now = new Date()) {
      db.prepare(
        `UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = coalesce(?, next_attempt_at), failed_at = ? WHERE inquiry_id = ?`,
      ).run(error.slice(0, 1000), nextAttemptMs, nextAttemptMs === null ? now.toISOString() : null, inquiryId);
    },
    close() {
      db.close();
    },
  };
}
