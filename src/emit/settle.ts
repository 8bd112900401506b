/**
 * Promise.all that waits for every promise to settle before rejecting with
 * the first error: nothing is still writing into the temporary folder when
 * the caller removes it, and no rejection goes unobserved.
 */
export async function allSettledOrThrow<T extends readonly unknown[]>(promises: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}
