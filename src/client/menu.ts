/**
 * The header's Products menu is a <details>: it opens and closes without
 * JavaScript, but on its own it stays open until its summary is pressed
 * again, covering the page. Enhanced, it closes as a menu does: on Escape
 * (focus back on its summary), on a click or tap outside it, and when focus
 * moves out of it.
 */
export function initMenus(root: ParentNode = document): void {
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
