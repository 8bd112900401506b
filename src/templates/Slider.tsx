/**
 * A slider as docs/CONTRACTS.md describes it. Without JavaScript the track
 * scrolls horizontally, so every slide stays reachable; the client adds
 * autoplay (3000 ms), transitions (300 ms), keyboard and swipe.
 */
import type { ReactNode } from 'react';

export function Slider({ label, slides }: { label: string; slides: ReactNode[] }) {
  if (slides.length === 0) return null;
  return (
    <div className="slider" data-slider="" data-autoplay="3000" data-transition="300" role="region" aria-roledescription="carousel" aria-label={label}>
      <div className="slider-track">
        {slides.map((slide, i) => (
          <div key={i} className="slide" data-slide="" role="group" aria-roledescription="slide" aria-label={`${i + 1} of ${slides.length}`}>
            {slide}
          </div>
        ))}
      </div>
      {slides.length > 1 ? (
        <div className="slider-controls">
          <button type="button" data-slider-prev="" aria-label="Previous slide">
            ‹
          </button>
          {slides.map((_, i) => (
            <button key={i} type="button" className="slider-dot" data-slider-dot={i} aria-label={`Show slide ${i + 1}`}></button>
          ))}
          <button type="button" data-slider-next="" aria-label="Next slide">
            ›
          </button>
        </div>
      ) : null}
    </div>
  );
}
