/**
 * The Share piece: the network links are plain links in the markup (no
 * third-party scripts); the client only adds the copy-link and print
 * buttons, which need JavaScript and so stay hidden without it.
 */
import { COPY_FEEDBACK_MS } from './constants.js';

/** Copies with the async Clipboard API, or the selection fallback (http origins, older browsers). */
export async function copyText(text: string, doc: Document = document): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Permission denied or not focused: try the fallback.
  }
  const area = doc.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  doc.body.append(area);
  area.select();
  let ok = false;
  try {
    ok = doc.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

export function initShare(doc: Document = document): void {
  for (const button of doc.querySelectorAll<HTMLButtonElement>('[data-share-print]')) {
    button.hidden = false;
    button.addEventListener('click', () => window.print());
  }
  for (const button of doc.querySelectorAll<HTMLButtonElement>('[data-share-copy]')) {
    const label = button.textContent ?? 'Copy link';
    const url = button.dataset.url || location.href.split('#')[0];
    button.hidden = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    button.addEventListener('click', async () => {
      const ok = await copyText(url, doc);
      button.textContent = ok ? 'Link copied' : 'Press Ctrl+C to copy';
      button.dataset.copied = String(ok);
      if (!ok) window.prompt('Copy this link:', url);
      clearTimeout(timer);
      timer = setTimeout(() => {
        button.textContent = label;
        delete button.dataset.copied;
      }, COPY_FEEDBACK_MS);
    });
  }
}
