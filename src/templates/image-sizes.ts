/**
 * `sizes` of each place a photograph of data/images/ is shown: how wide it
 * is drawn, from the stylesheet's layout (src/client/styles.css), so that the
 * browser picks the smallest copy that is sharp there. Keep them in step
 * with the stylesheet; a guess too small only costs sharpness, not layout.
 */
export const IMAGE_SIZES = {
  /** The product gallery: 5/11 of the 72rem container beside the heading from 48rem, the full width below. */
  gallery: '(min-width: 72rem) 31rem, (min-width: 48rem) 45vw, 100vw',
  /** A gallery thumbnail button (4.5rem). */
  thumb: '4.5rem',
  /** A product card: a 6rem thumbnail on a phone, else a column of the card grid (at least 15rem). */
  productCard: '(max-width: 40rem) 6rem, 22rem',
  /** A news card: the full width on a phone, else a column of the card grid. */
  newsCard: '(max-width: 40rem) 100vw, 22rem',
  /** A news item's own image: the 48rem article column. */
  article: '(min-width: 50rem) 48rem, 100vw',
  /** A home page banner: the whole container. */
  banner: '(min-width: 72rem) 72rem, 100vw',
} as const;
