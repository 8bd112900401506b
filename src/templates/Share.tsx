/** Share links as plain URLs: no third-party scripts, works without JavaScript. */
import { Repeated } from './slots.js';

/** The links, from the page URL and title already URL-encoded. */
function encodedShareLinks(u: string, t: string): Array<{ network: string; label: string; href: string }> {
  return [
    { network: 'linkedin', label: 'LinkedIn', href: `https://www.linkedin.com/sharing/share-offsite/?url=${u}` },
    { network: 'facebook', label: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    { network: 'x', label: 'X', href: `https://x.com/intent/tweet?url=${u}&text=${t}` },
    { network: 'whatsapp', label: 'WhatsApp', href: `https://wa.me/?text=${t}%20${u}` },
    { network: 'email', label: 'E-mail', href: `mailto:?subject=${t}&body=${u}` },
  ];
}

export function shareLinks(url: string, title: string): Array<{ network: string; label: string; href: string }> {
  return encodedShareLinks(encodeURIComponent(url), encodeURIComponent(title));
}

function ShareMarkup({ url, u, t }: { url: string; u: string; t: string }) {
  return (
    <div className="share" data-share="">
      <h2 className="share-title">Share</h2>
      <ul>
        {encodedShareLinks(u, t).map((s) => (
          <li key={s.network}>
            {s.network === 'email' ? (
              <a data-share-network={s.network} href={s.href}>
                {s.label}
              </a>
            ) : (
              <a data-share-network={s.network} href={s.href} target="_blank" rel="noopener noreferrer">
                {s.label}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            )}
          </li>
        ))}
        {/* In the row with the networks; the item shows once the client unhides its button (styles.css). */}
        <li className="share-copy">
          <button type="button" data-share-copy="" data-url={url} hidden>
            Copy link
          </button>
        </li>
      </ul>
    </div>
  );
}

/** The same on every article, news and product page but for the page's URL and title. */
export function Share({ url, title }: { url: string; title: string }) {
  return (
    <Repeated
      cacheKey="share"
      values={[url, encodeURIComponent(url), encodeURIComponent(title)]}
      render={([url, u, t]) => <ShareMarkup url={url} u={u} t={t} />}
    />
  );
}
