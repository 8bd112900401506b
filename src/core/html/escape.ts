const SPECIAL = /[&<>"']/;

/** Text safe in HTML content and in quoted attribute values. */
export function escapeHtml(value: unknown): string {
  const text = String(value ?? '');
  // Most values (URLs, numbers, rule ids) have nothing to escape: testing costs less than five replaces.
  if (!SPECIAL.test(text)) return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
