/** Share links as plain URLs: no third-party scripts, works without JavaScript. */

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

function ShareMarkup({ url, u, t, print }: { url: string; u: string; t: string; print: boolean }) {
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
        {/* A product page printed is its spec sheet (the print styles in styles.css); the client unhides the button. */}
        {print ? (
          <li className="share-print">
            <button type="button" data-share-print="" hidden>
              Print spec sheet
            </button>
          </li>
        ) : null}
      </ul>
    </div>
  );
}

/** The same on every article, news and product page but for the page's URL and title; `print` adds the print button. */
export function Share({ url, title, print = false }: { url: string; title: string; print?: boolean }) {
  return <ShareMarkup url={url} u={encodeURIComponent(url)} t={encodeURIComponent(title)} print={print} />;
}
