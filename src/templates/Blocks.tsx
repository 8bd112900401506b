/**
 * Body blocks of articles, news, products and pages as semantic HTML.
 * Content is never raw HTML; links render only with a safe scheme, anything
 * else (javascript:, data:) stays plain text.
 */
import type { Block, Inline, RichText } from '../load/schema.js';
import { safeHref } from '../render/text.js';

export function InlineLink({ part }: { part: Exclude<Inline, string> }) {
  const href = safeHref(part.href);
  if (href === null) return <>{part.text}</>;
  const external = /^https?:\/\//i.test(href);
  return external ? (
    <a href={href} rel="noopener">
      {part.text}
    </a>
  ) : (
    <a href={href}>{part.text}</a>
  );
}

export function Rich({ text }: { text: RichText }) {
  if (typeof text === 'string') return <>{text}</>;
  return <>{text.map((part, i) => (typeof part === 'string' ? part : <InlineLink key={i} part={part} />))}</>;
}

function BlockView({ block }: { block: Block }) {
  switch (block.type) {
    case 'heading':
      return block.level === 2 ? <h2>{block.text}</h2> : <h3>{block.text}</h3>;
    case 'paragraph':
      return (
        <p>
          <Rich text={block.text} />
        </p>
      );
    case 'list': {
      const items = block.items.map((item, i) => (
        <li key={i}>
          <Rich text={item} />
        </li>
      ));
      return block.ordered ? <ol>{items}</ol> : <ul>{items}</ul>;
    }
    case 'table':
      return (
        <div className="table-wrap">
          <table>
            {block.caption ? <caption>{block.caption}</caption> : null}
            <thead>
              <tr>
                {block.head.map((h, i) => (
                  <th key={i} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'quote':
      return (
        <figure className="quote">
          <blockquote>
            <p>{block.text}</p>
          </blockquote>
          {block.cite ? <figcaption>{block.cite}</figcaption> : null}
        </figure>
      );
  }
}

export function Blocks({ blocks }: { blocks: readonly Block[] }) {
  return (
    <>
      {blocks.map((block, i) => (
        <BlockView key={i} block={block} />
      ))}
    </>
  );
}
