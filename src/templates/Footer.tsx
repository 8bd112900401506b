/** Site footer: contact details, category links and company links. */
import { type SiteModel, navCategories, screenHref } from '../model/model.js';
import { safeHref } from '../model/text.js';

/** `+86 29 8888 0000` → `tel:+862988880000`. */
export const telHref = (phone: string): string => 'tel:' + phone.replace(/[^+\d]/g, '');

export function Footer({ model }: { model: SiteModel }) {
  const { site } = model;
  const c = site.contact;
  const categories = navCategories(model.nav);
  const social = (['linkedin', 'facebook', 'x'] as const)
    .map((k) => ({ k, href: site.social[k] ? safeHref(site.social[k]) : null }))
    .filter((s): s is { k: 'linkedin' | 'facebook' | 'x'; href: string } => s.href !== null);
  const labels = { linkedin: 'LinkedIn', facebook: 'Facebook', x: 'X' };
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact">{c.company}</h2>
          <address>
            <p>{c.address}</p>
            <p>
              E-mail: <a href={`mailto:${c.email}`}>{c.email}</a>
            </p>
            <p>
              Phone: <a href={telHref(c.phone)}>{c.phone}</a>
            </p>
            {c.whatsapp ? (
              <p>
                WhatsApp: <a href={`https://wa.me/${c.whatsapp.replace(/[^\d]/g, '')}`}>{c.whatsapp}</a>
              </p>
            ) : null}
            {c.hours ? <p>{c.hours}</p> : null}
          </address>
        </section>
        <nav aria-labelledby="footer-products">
          <h2 id="footer-products">Products</h2>
          <ul className="footer-categories">
            {categories.map((cat) => (
              <li key={cat.id}>
                <a href={cat.path}>{cat.name}</a>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-company">
          <h2 id="footer-company">Company</h2>
          <ul>
            <li>
              <a href={screenHref(model, 'about')}>About us</a>
            </li>
            <li>
              <a href={screenHref(model, 'knowledge')}>Knowledge</a>
            </li>
            <li>
              <a href={screenHref(model, 'news')}>News</a>
            </li>
            <li>
              <a href={screenHref(model, 'contact')}>Contact us</a>
            </li>
            {social.map((s) => (
              <li key={s.k}>
                <a href={s.href} rel="noopener">
                  {labels[s.k]}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="container footer-bottom">
        <p>© {c.company.replace(/\.$/, '')}. Lab-tested purity · GMP factory · bulk and wholesale supply.</p>
      </div>
    </footer>
  );
}
