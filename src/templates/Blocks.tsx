/**
 * Body blocks of articles, news, products and pages as semantic HTML.
 * Content is never raw HTML; links render only with a safe scheme, anything
 * else (javascript:, data:) stays plain text.
 */
import type { ReactNode } from 'react';
import type { Block, Inline, RichText } from '../core/schema.js';
import { safeHref } from '../model/text.js';

const isExternal = (href: string): boolean => /^https?:\/\//i.test(href);

/*
 * Plain functions, not components: a body has dozens of blocks, and React
 * spends more on a component than on the element it returns.
 */
function inlineLink(part: Exclude<Inline, string>, key?: number): ReactNode {
  const href = safeHref(part.href);
  if (href === null) return part.text;
  return isExternal(href) ? (
    <a key={key} href={href} rel="noopener">
      {part.text}
    </a>
  ) : (
    <a key={key} href={href}>
      {part.text}
    </a>
  );
}

function rich(content: RichText): ReactNode {
  if (typeof content === 'string') return content;
  return content.map((part, i) => (typeof part === 'string' ? part : inlineLink(part, i)));
}

export function InlineLink({ part }: { part: Exclude<Inline, string> }) {
  return <>{inlineLink(part)}</>;
}

export function Rich({ text }: { text: RichText }) {
  return <>{rich(text)}</>;
}

function blockView(block: Block, key: number): ReactNode {
  switch (block.type) {
    case 'heading':
      return block.level === 2 ? <h2 key={key}>{block.text}</h2> : <h3 key={key}>{block.text}</h3>;
    case 'paragraph':
      return <p key={key}>{rich(block.text)}</p>;
    case 'list': {
      const items = block.items.map((item, i) => <li key={i}>{rich(item)}</li>);
      return block.ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>;
    }
    case 'table': {
      const caption = block.caption ? <caption>{block.caption}</caption> : null;
      const head = block.head.map((h, i) => (
        <th key={i} scope="col">
          {h}
        </th>
      ));
      const rows = block.rows.map((row, r) => (
        <tr key={r}>
          {row.map((cell, c) => (
            <td key={c}>{cell}</td>
          ))}
        </tr>
      ));
      return (
        // A wide table scrolls sideways inside its box: focusable, so a keyboard can scroll it too.
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
      return (
        <figure key={key} className="quote">
          <blockquote>
            <p>{block.text}</p>
          </blockquote>
          {block.cite ? <figcaption>{block.cite}</figcaption> : null}
        </figure>
      );
    }
  }
}

export function Blocks({ blocks }: { blocks: readonly Block[] }) {
  if (blocks.length === 0) return null;
  return <>{blocks.map((block, i) => blockView(block, i))}</>;
}
