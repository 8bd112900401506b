/**
 * The inquiry list: a buyer collects products while browsing ("Add to
 * inquiry list" on a product page), then asks about all of them in one
 * message from the contact page, whose form lists them and fills its
 * Product field. Kept in localStorage, so it survives pages and visits;
 * every page's menu shows how many products it holds. Without JavaScript
 * (or storage) none of it shows, and each product's own form still works.
 */
import { STORAGE } from './constants.js';

interface Item {
  name: string;
  url: string;
}

/** The Product field's text for a list: what the server stores and the forms code compares with on sending. */
const listText = (items: readonly Item[]): string => items.map((i) => i.name).join('; ');

function read(): Item[] {
  try {
    const items = JSON.parse(localStorage.getItem(STORAGE.inquiryList) ?? '[]') as unknown;
    return Array.isArray(items) ? items.filter((i): i is Item => typeof i?.name === 'string' && typeof i?.url === 'string') : [];
  } catch {
    return [];
  }
}

function write(items: readonly Item[]): void {
  try {
    if (items.length === 0) localStorage.removeItem(STORAGE.inquiryList);
    else localStorage.setItem(STORAGE.inquiryList, JSON.stringify(items));
  } catch {
    // storage full or disabled: the list stays as it was
  }
  render();
}

function render(): void {
  const items = read();
  for (const link of document.querySelectorAll<HTMLElement>('[data-inquiry-list-link]')) {
    link.hidden = items.length === 0;
    const count = link.querySelector('[data-inquiry-list-count]');
    if (count) count.textContent = String(items.length);
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-inquiry-list-add]')) {
    const listed = items.some((i) => i.url === button.dataset.url);
    button.setAttribute('aria-pressed', String(listed));
    button.textContent = listed ? 'In your inquiry list ✓' : 'Add to inquiry list';
    button.closest<HTMLElement>('[hidden]')?.removeAttribute('hidden');
  }
  for (const box of document.querySelectorAll<HTMLElement>('[data-inquiry-list-box]')) renderBox(box, items);
}

/** The contact page's list above its form: each product with a remove button; the form asks about them all. */
function renderBox(box: HTMLElement, items: readonly Item[]): void {
  box.hidden = items.length === 0;
  const list = box.querySelector('ul');
  if (!list) return;
  list.replaceChildren(
    ...items.map((item) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = item.url;
      a.textContent = item.name;
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'link-button';
      remove.textContent = 'Remove';
      remove.setAttribute('aria-label', `Remove ${item.name} from the inquiry list`);
      remove.addEventListener('click', () => write(read().filter((i) => i.url !== item.url)));
      li.append(a, ' ', remove);
      return li;
    }),
  );
  const form = document.getElementById(box.dataset.form ?? '') as HTMLFormElement | null;
  const product = form?.elements.namedItem('product');
  if (product instanceof HTMLInputElement && items.length > 0) {
    product.value = listText(items);
    const type = form!.elements.namedItem('type');
    if (type instanceof HTMLSelectElement && type.value === 'contact') type.value = 'quote';
  }
}

export function initInquiryList(): void {
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.<HTMLButtonElement>('[data-inquiry-list-add]');
    if (!button) return;
    const { name = '', url = '' } = button.dataset;
    const items = read();
    write(items.some((i) => i.url === url) ? items.filter((i) => i.url !== url) : [...items, { name, url }]);
  });
  // Sent from the form that asked about the whole list (forms.ts): the list has been answered.
  document.addEventListener('site:inquiry-sent', (event) => {
    const items = read();
    if (items.length > 0 && (event as CustomEvent<{ product?: string }>).detail?.product === listText(items)) write([]);
  });
  // Another tab changed it.
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE.inquiryList) render();
  });
  render();
}
