/**
 * Reading one JSON file of the catalogue: `JSON.parse` on the happy path (it
 * is the fastest parser there is); on a syntax error jsonc-parser finds the
 * position, so the editor is told the line and column, not a byte offset.
 */
import type { ParseError } from 'jsonc-parser';
import type { Diagnostic } from '../core/diagnostics.js';
import { createLocator, jsoncParser, stripBom } from './locate.js';
import { severityOf } from '../core/codes.js';

export type ParsedJson = { ok: true; value: unknown; text: string } | { ok: false; diagnostic: Diagnostic };

const EXPLAIN: Record<string, string> = {
  InvalidSymbol: 'an unexpected character',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'a field name in double quotes was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: 'a colon after the field name was expected',
  CommaExpected: 'a comma between items was expected',
  CloseBraceExpected: 'a closing } was expected',
  CloseBracketExpected: 'a closing ] was expected',
  EndOfFileExpected: 'the file should end here',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number is cut off',
  InvalidUnicode: 'an invalid \\u escape',
  InvalidEscapeCharacter: 'an invalid escape character',
  InvalidCharacter: 'a control character inside a string (escape it)',
};

export function parseJson(text: string, file: string): ParsedJson {
  const clean = stripBom(text);
  try {
    return { ok: true, value: JSON.parse(clean), text: clean };
  } catch (err) {
    return { ok: false, diagnostic: syntaxDiagnostic(clean, file, err) };
  }
}

function syntaxDiagnostic(text: string, file: string, err: unknown): Diagnostic {
  const { parse, printParseErrorCode } = jsoncParser();
  const errors: ParseError[] = [];
  // Strict settings so that jsonc-parser objects to everything JSON.parse does.
  parse(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
  const first = errors[0];
  const offset = first?.offset ?? positionFromMessage(err) ?? 0;
  const { line, column } = createLocator(text).positionAt(offset);
  let what = first ? EXPLAIN[printParseErrorCode(first.error)] : err instanceof Error ? err.message : undefined;
  // Trailing commas are the most common hand-editing slip; name them.
  if (first && /^[\]}]/.test(text.slice(first.offset)) && text.slice(0, first.offset).trimEnd().endsWith(',')) {
    what = 'a trailing comma before a closing bracket or brace (remove it)';
  }
  return {
    code: 'load/invalid-json',
    severity: severityOf('load/invalid-json'),
    file,
    pointer: '',
    line,
    column,
    message: `Not valid JSON: ${what ?? 'syntax error'} (line ${line}, column ${column}).`,
  };
}

function positionFromMessage(err: unknown): number | undefined {
  const m = err instanceof Error ? err.message.match(/at position (\d+)/) : null;
  return m ? Number(m[1]) : undefined;
}
