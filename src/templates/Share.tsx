/** Share links as plain URLs: no third-party scripts, works without JavaScript. */
export function shareLinks(url: string, title: string): Array<{ network: string; label: string; href: string }> {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(title);
  return [
    { network: 'linkedin', label: 'LinkedIn', href: `https://www.linkedin.com/sharing/share-offsite/?url=${u}` },
    { network: 'facebook', label: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    { network: 'x', label: 'X', href: `https://x.com/intent/tweet?url=${u}&text=${t}` },
    { network: 'whatsapp', label: 'WhatsApp', href: `https://wa.me/?text=${t}%20${u}` },
    { network: 'email', label: 'E-mail', href: `mailto:?subject=${t}&body=${u}` },
  ];
}

export function Share({ url, title }: { url: string; title: string }) {
  return (
    <div className="share" data-share="">
      <h2 className="share-title">Share</h2>
      <ul>
        {shareLinks(url, title).map((s) => (
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
      </ul>
      <button type="button" data-share-copy="" data-url={url} hidden>
        Copy link
      </button>
    </div>
  );
}
