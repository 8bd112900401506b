/**
 * `site audit --lighthouse` audits a page once more when Lighthouse's first
 * run ends in a runtime error of its own (the trace lost the navigation, the
 * browser did not answer), and reports any other runtime error at once.
 */
import { describe, expect, it } from 'vitest';
import { resultWithRetry } from '../../src/audit/lighthouse.js';

type Result = { runtimeError?: { code: string; message: string }; score?: number };

/** A stand-in for Lighthouse that answers the given results in turn and counts its calls. */
function runs(...results: Array<Result | undefined>) {
  let calls = 0;
  return { run: async () => results[calls++], calls: () => calls };
}

describe('resultWithRetry', () => {
  it('returns the second run after a transient runtime error, and says so', async () => {
    const lighthouse = runs({ runtimeError: { code: 'NO_NAVSTART', message: 'no navstart' } }, { score: 1 });
    const retried: string[] = [];
    await expect(resultWithRetry(lighthouse.run, (code) => retried.push(code))).resolves.toEqual({ score: 1 });
    expect(lighthouse.calls()).toBe(2);
    expect(retried).toEqual(['NO_NAVSTART']);
  });

  it('reports the second transient error rather than trying a third time', async () => {
    const lighthouse = runs({ runtimeError: { code: 'PROTOCOL_TIMEOUT', message: 'slow' } }, { runtimeError: { code: 'NO_NAVSTART', message: 'again' } });
    await expect(resultWithRetry(lighthouse.run, () => undefined)).rejects.toThrow('NO_NAVSTART: again');
    expect(lighthouse.calls()).toBe(2);
  });

  it('reports an error about the page at once', async () => {
    const lighthouse = runs({ runtimeError: { code: 'ERRORED_DOCUMENT_REQUEST', message: 'status 404' } }, { score: 1 });
    await expect(resultWithRetry(lighthouse.run, () => undefined)).rejects.toThrow('ERRORED_DOCUMENT_REQUEST: status 404');
    expect(lighthouse.calls()).toBe(1);
  });

  it('returns a first run without error as it is', async () => {
    const lighthouse = runs({ score: 0.5 });
    await expect(resultWithRetry(lighthouse.run, () => undefined)).resolves.toEqual({ score: 0.5 });
    expect(lighthouse.calls()).toBe(1);
  });

  it('fails when Lighthouse returns nothing', async () => {
    await expect(resultWithRetry(runs(undefined).run, () => undefined)).rejects.toThrow('Lighthouse returned no result');
  });
});
