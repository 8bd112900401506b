/** Contact details and the contact form (an inquiry form of type "contact" by default). */
import { Blocks } from './Blocks.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import { telHref } from './Footer.js';
import { Inquire } from './Inquire.js';
import type { ScreenProps } from './props.js';

export function Contact({ model, route, view, crumbs }: ScreenProps<'contact'>) {
  const { page } = view;
  const c = model.site.contact;
  return (
    <div className="container">
      <Breadcrumbs crumbs={crumbs} />
      <header className="page-header">
        <h1>{page.heading}</h1>
        {page.intro ? <p className="lead">{page.intro}</p> : null}
        {/* On a phone the form comes after the contact details and the page's text: a screen's scroll below. */}
        <p className="contact-jump">
          <a className="button button-primary" href="#contact-form-heading">
            Send us a message
          </a>
        </p>
      </header>
      <div className="contact-layout">
        <section className="contact-details" aria-labelledby="contact-details-heading">
          <h2 id="contact-details-heading">{c.company}</h2>
          <dl>
            <dt>Address</dt>
            <dd>{c.address}</dd>
            <dt>E-mail</dt>
            <dd>
              <a href={`mailto:${c.email}`}>{c.email}</a>
            </dd>
            <dt>Phone</dt>
            <dd>
              <a href={telHref(c.phone)}>{c.phone}</a>
            </dd>
            {c.whatsapp ? (
              <>
                <dt>WhatsApp</dt>
                <dd>
                  <a href={`https://wa.me/${c.whatsapp.replace(/[^\d]/g, '')}`}>{c.whatsapp}</a>
                </dd>
              </>
            ) : null}
            {c.hours ? (
              <>
                <dt>Hours</dt>
                <dd>{c.hours}</dd>
              </>
            ) : null}
          </dl>
          <div className="prose">
            <Blocks blocks={page.body} />
          </div>
        </section>
        <div className="contact-form-column">
          {/* Filled and shown by the browser code (inquiry-list.ts) when the buyer has listed products. */}
          <section className="inquiry-list" id="inquiry-list" data-inquiry-list-box="" data-form="contact-form" aria-labelledby="inquiry-list-heading" hidden>
            <h2 id="inquiry-list-heading">Your inquiry list</h2>
            <p>The message below asks about these products; remove any you do not need.</p>
            <ul></ul>
          </section>
          <Inquire
            action={model.site.inquiryEndpoint}
            page={route.path}
            type="contact"
            formId="contact-form"
            heading="Send us a message"
            intro="Questions about a product, a quote, samples or private labelling: we reply within one working day."
          />
        </div>
      </div>
    </div>
  );
}
