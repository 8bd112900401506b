/**
 * The header's Products menu is a <details>: it opens and closes without
 * JavaScript, but on its own it stays open until its summary is pressed
 * again, covering the page. Enhanced, it closes as a menu does: on Escape
 * (focus back on its summary), on a click or tap outside it, and when focus
 * moves out of it.
 *
 * On a phone the main navigation is one row that scrolls sideways
 * (styles.css): the entry of the current section, when it lies past the
 * row's right edge (About us, Contact us), is scrolled into view, so the
 * buyer sees where they are.
 */
export function initMenus(root: ParentNode = document): void {
  showCurrentEntry(root);
  markRowEnd(root);
  const menus = Array.from(root.querySelectorAll<HTMLDetailsElement>('.site-nav details'));
  if (menus.length === 0) return;
  const close = (menu: HTMLDetailsElement, refocus: boolean) => {
    if (!menu.open) return;
    menu.open = false;
    if (refocus) menu.querySelector('summary')?.focus();
  };
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    for (const menu of menus) if (menu.open) close(menu, menu.contains(document.activeElement));
  });
  document.addEventListener(
    'pointerdown',
    (event) => {
      for (const menu of menus) if (!menu.contains(event.target as Node)) close(menu, false);
    },
    { passive: true },
  );
  for (const menu of menus) {
    menu.addEventListener('focusout', (event) => {
      const next = event.relatedTarget as Node | null;
      // null: focus left the document (another window), not the menu for another place on the page.
      if (next !== null && !menu.contains(next)) close(menu, false);
    });
  }
}

/**
 * Where CSS has no scroll-driven animations (Firefox), the row's edge fade (styles.css) cannot clear at
 * its end by itself and would cover the last entry: `data-row-end` on the nav says the row is there.
 */
function markRowEnd(root: ParentNode): void {
  if (typeof CSS !== 'undefined' && CSS.supports('animation-timeline: scroll()')) return;
  const row = root.querySelector<HTMLElement>('.nav-main');
  const nav = row?.closest<HTMLElement>('.site-nav');
  if (!row || !nav) return;
  const mark = () => nav.toggleAttribute('data-row-end', row.scrollLeft + row.clientWidth >= row.scrollWidth - 1);
  row.addEventListener('scroll', mark, { passive: true });
  window.addEventListener('resize', mark, { passive: true });
  mark();
}

function showCurrentEntry(root: ParentNode): void {
  const current = root.querySelector<HTMLElement>('.nav-main [aria-current="page"], .nav-main .is-current');
  const row = current?.closest<HTMLElement>('.nav-main');
  if (!current || !row || row.scrollWidth <= row.clientWidth) return;
  // The row's own scroll position only: scrollIntoView would also scroll the page, off a #fragment it landed on.
  const past = current.getBoundingClientRect().right - row.getBoundingClientRect().right;
  if (past > 0) row.scrollLeft += past + 16;
}
