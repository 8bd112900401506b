/**
 * The calls to action of a product page ("Free sample", "Private labelling",
 * …) lead to the inquiry form with their choice made in its "I would like"
 * field: each link names its type in data-inquiry-type and the form in its
 * fragment. A link from elsewhere can make the same choice with `?type=`
 * (`/monomer/bulk-curcumin?type=free-sample#inquire`). Without JavaScript the
 * link still lands on the form, where the buyer chooses.
 */

/** The inquiry form a fragment names: the form itself, or the first one inside the element. */
function formAt(id: string): HTMLFormElement | null {
  const target = id === '' ? null : document.getElementById(id);
  if (target instanceof HTMLFormElement) return target;
  return target?.querySelector<HTMLFormElement>('form[data-inquiry-form]') ?? null;
}

/** Selects `type` in the form's "type" field; false when the form has no such choice. */
export function chooseInquiryType(form: HTMLFormElement | null, type: string): boolean {
  const select = form?.elements.namedItem('type');
  if (!(select instanceof HTMLSelectElement) || !Array.from(select.options).some((o) => o.value === type)) return false;
  if (select.value !== type) {
    select.value = type;
    // As if the buyer had chosen: the form's draft keeps it.
    select.dispatchEvent(new Event('change', { bubbles: true }));
  }
  return true;
}

export function initInquiryChoice(): void {
  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>('a[data-inquiry-type]');
    if (!link) return;
    // The browser follows the fragment as usual; the choice is made before it gets there.
    chooseInquiryType(formAt(decodeURIComponent(new URL(link.href).hash.slice(1))), link.dataset.inquiryType ?? '');
  });
  const asked = new URLSearchParams(location.search).get('type');
  if (asked) chooseInquiryType(formAt(decodeURIComponent(location.hash.slice(1))) ?? document.querySelector('form[data-inquiry-form]'), asked);
}
