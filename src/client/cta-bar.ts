/**
 * A product page's quick inquiry bar (shown on phones, see styles.css) steps
 * aside while the page's own calls to action or its inquiry form are on the
 * screen: it would repeat the buttons in view, and cover the form's fields
 * and its submit button. Without JavaScript, or without
 * IntersectionObserver, it simply stays.
 */
export function initCtaBar(root: ParentNode = document): void {
  const bar = root.querySelector<HTMLElement>('[data-cta-bar]');
  if (bar === null || typeof IntersectionObserver === 'undefined') return;
  const targets = Array.from(root.querySelectorAll('.cta-list, .inquire'));
  if (targets.length === 0) return;
  const inView = new Set<Element>();
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) inView.add(entry.target);
      else inView.delete(entry.target);
    }
    const away = inView.size > 0;
    bar.toggleAttribute('data-away', away);
    // Out of the tab order and the accessibility tree while it is off screen.
    bar.inert = away;
  });
  for (const target of targets) observer.observe(target);
}
