/**
 * The one script body a page carries. React 19 writes the text child of a
 * <script> as raw text (it only defuses "</script"), and serializeJsonLd has
 * already written <, >, & and U+2028/2029 as \u escapes, so no content can
 * close the tag or open a comment; no dangerouslySetInnerHTML is needed.
 * tests/render/json-ld.test.ts reads the JSON back out of rendered HTML.
 */
import { type JsonLd as Data, serializeJsonLd } from '../model/json-ld.js';

export function jsonLdScript(data: Data, key?: number) {
  return (
    <script key={key} type="application/ld+json">
      {serializeJsonLd(data)}
    </script>
  );
}
