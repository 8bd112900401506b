/**
 * Limits on the size of data/, set by site.json's `limits` (validated by the
 * schema, with these defaults). A data file over `fileBytes` (routes.json:
 * `routesBytes`) is refused
 * before it is read: a 52 MB product file would otherwise be held, parsed,
 * rendered and published as a 50 MB page. A text over `textChars` is a
 * warning: a description or body that long is a paste accident more often
 * than content, and the page that shows it is slow to load and to render.
 */
export interface DataLimits {
  /** Bytes a data file (JSON) may have, but for routes.json. */
  fileBytes: number;
  /** Bytes routes.json may have: the registry grows with the catalogue, no other file does (docs/PERFORMANCE.md, "Check"). */
  routesBytes: number;
  /** Characters (UTF-16 code units) a text of a data file may have before a warning. */
  textChars: number;
}

/**
 * 5 MB: some seven hundred times the largest entity file of the shipped catalogue. 256 MB of routes.json: about
 * 800,000 routes. 100,000 characters: some fifty printed pages.
 */
export const DEFAULT_LIMITS: Readonly<DataLimits> = { fileBytes: 5 * 1024 * 1024, routesBytes: 256 * 1024 * 1024, textChars: 100_000 };

/**
 * The limits site.json's bytes set, read before site.json is validated (the
 * other files are read, within the limit, before anything is validated). A
 * value that is not a positive integer counts as absent here; the schema
 * reports it.
 */
export function limitsOf(siteBytes: Uint8Array | undefined): DataLimits {
  let limits: unknown;
  try {
    limits =
      siteBytes &&
      (
        JSON.parse(
          Buffer.from(siteBytes.buffer, siteBytes.byteOffset, siteBytes.byteLength)
            .toString('utf8')
            .replace(/^\uFEFF/, ''),
        ) as { limits?: unknown }
      ).limits;
  } catch {
    limits = undefined;
  }
  const pick = (key: keyof DataLimits): number => {
    const v = limits !== null && typeof limits === 'object' ? (limits as Record<string, unknown>)[key] : undefined;
    return Number.isSafeInteger(v) && (v as number) > 0 ? (v as number) : DEFAULT_LIMITS[key];
  };
  return { fileBytes: pick('fileBytes'), routesBytes: pick('routesBytes'), textChars: pick('textChars') };
}

/** The paths of the strings in a parsed JSON value longer than `max`, in document order. */
export function longTexts(value: unknown, max: number): Array<Array<string | number>> {
  const found: Array<Array<string | number>> = [];
  // One path, grown and shrunk as the walk goes (routes.json of 100,000 routes has a million values), copied on a find.
  const path: Array<string | number> = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') {
      if (v.length > max) found.push([...path]);
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        walk(v[i]);
        path.pop();
      }
    } else if (v !== null && typeof v === 'object') {
      for (const k in v) {
        path.push(k);
        walk((v as Record<string, unknown>)[k]);
        path.pop();
      }
    }
  };
  walk(value);
  return found;
}

/** A size as an editor reads it: 5.0 MB, 812 KB, 300 bytes. */
export function shownBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}
