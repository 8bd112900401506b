/**
 * Body blocks of articles, news, products and pages as semantic HTML.
 * Content is never raw HTML; links render only with a safe scheme, anything
 * else (javascript:, data:) stays plain text.
 *
 * Bodies made from the same outline (block kinds, heading levels, list
 * items, links, table sizes) differ only in their strings: a body is a
 * repeated piece named by its outline, its strings the values. The
 * catalogue's 284 product descriptions have 7 outlines.
 */
import type { ReactNode } from 'react';
import type { Block, Inline, RichText } from '../core/schema.js';
import { safeHref } from '../model/text.js';
import { Repeated } from './slots.js';

/**
 * Every string a body prints passes through `text`, in document order: the
 * identity for a direct render, the next value for a template.
 */
type Text = (s: string) => string;
const same: Text = (s) => s;

const isExternal = (href: string): boolean => /^https?:\/\//i.test(href);

/*
 * Plain functions, not components: a body has dozens of blocks, and React
 * spends more on a component than on the element it returns.
 */
function inlineLink(part: Exclude<Inline, string>, text: Text, key?: number): ReactNode {
  const href = safeHref(part.href);
  if (href === null) return text(part.text);
  // safeHref lets through no URL React would rewrite, so an href may be a value.
  const url = text(href);
  const label = text(part.text);
  return isExternal(href) ? (
    <a key={key} href={url} rel="noopener">
      {label}
    </a>
  ) : (
    <a key={key} href={url}>
      {label}
    </a>
  );
}

function rich(content: RichText, text: Text): ReactNode {
  if (typeof content === 'string') return text(content);
  return content.map((part, i) => (typeof part === 'string' ? text(part) : inlineLink(part, text, i)));
}

export function InlineLink({ part }: { part: Exclude<Inline, string> }) {
  return <>{inlineLink(part, same)}</>;
}

export function Rich({ text }: { text: RichText }) {
  return <>{rich(text, same)}</>;
}

function blockView(block: Block, key: number, text: Text): ReactNode {
  switch (block.type) {
    case 'heading':
      return block.level === 2 ? <h2 key={key}>{text(block.text)}</h2> : <h3 key={key}>{text(block.text)}</h3>;
    case 'paragraph':
      return <p key={key}>{rich(block.text, text)}</p>;
    case 'list': {
      const items = block.items.map((item, i) => <li key={i}>{rich(item, text)}</li>);
      return block.ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>;
    }
    case 'table': {
      const caption = block.caption ? <caption>{text(block.caption)}</caption> : null;
      const head = block.head.map((h, i) => (
        <th key={i} scope="col">
          {text(h)}
        </th>
      ));
      const rows = block.rows.map((row, r) => (
        <tr key={r}>
          {row.map((cell, c) => (
            <td key={c}>{text(cell)}</td>
          ))}
        </tr>
      ));
      return (
        // A wide table scrolls sideways inside its box: focusable, so a keyboard can scroll it too. (No label made from
        // the caption: every string of a block goes through `text` exactly once, in the order outlineBlocks lists them.)
        <div key={key} className="table-wrap" tabIndex={0}>
          <table>
            {caption}
            <thead>
              <tr>{head}</tr>
            </thead>
            <tbody>{rows}</tbody>
          </table>
        </div>
      );
    }
    case 'quote': {
      const quote = text(block.text);
      return (
        <figure key={key} className="quote">
          <blockquote>
            <p>{quote}</p>
          </blockquote>
          {block.cite ? <figcaption>{text(block.cite)}</figcaption> : null}
        </figure>
      );
    }
  }
}

/** The outline of rich text (a plain string, or its parts: text, internal, external or unsafe link) and its strings. */
function outlineRich(content: RichText, values: string[]): string {
  if (typeof content === 'string') {
    values.push(content);
    return '"';
  }
  let outline = '[';
  for (const part of content) {
    if (typeof part === 'string') {
      values.push(part);
      outline += 's';
      continue;
    }
    const href = safeHref(part.href);
    if (href === null) {
      values.push(part.text);
      outline += 'x';
    } else {
      values.push(href, part.text);
      outline += isExternal(href) ? 'E' : 'L';
    }
  }
  return outline + ']';
}

/** What names a body's template (everything blockView decides by) and the strings it prints, in blockView's order. */
export function outlineBlocks(blocks: readonly Block[]): { outline: string; values: string[] } {
  const values: string[] = [];
  let outline = 'blocks\n';
  for (const block of blocks) {
    switch (block.type) {
      case 'heading':
        values.push(block.text);
        outline += `h${block.level}`;
        break;
      case 'paragraph':
        outline += `p${outlineRich(block.text, values)}`;
        break;
      case 'list':
        outline += block.ordered ? 'ol(' : 'ul(';
        for (const item of block.items) outline += outlineRich(item, values);
        outline += ')';
        break;
      case 'table':
        if (block.caption) values.push(block.caption);
        values.push(...block.head);
        for (const row of block.rows) values.push(...row);
        outline += `t${block.caption ? 'c' : ''}${block.head.length}:${block.rows.map((row) => row.length).join(',')}`;
        break;
      case 'quote':
        values.push(block.text);
        if (block.cite) values.push(block.cite);
        outline += block.cite ? 'qc' : 'q';
        break;
    }
    outline += ' ';
  }
  return { outline, values };
}

export function Blocks({ blocks }: { blocks: readonly Block[] }) {
  if (blocks.length === 0) return null;
  const { outline, values } = outlineBlocks(blocks);
  return (
    <Repeated
      cacheKey={outline}
      values={values}
      render={(given) => {
        if (given === values) return blocks.map((block, i) => blockView(block, i, same));
        // A template: the markers, in the order blockView prints strings.
        let next = 0;
        return blocks.map((block, i) => blockView(block, i, () => given[next++]));
      }}
    />
  );
}
