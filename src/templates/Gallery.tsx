/** Product images with thumbnails; the client adds zoom up to 3x. */
import type { OgImage } from '../model/head.js';
import { responsive, type SiteModel } from '../model/model.js';
import { IMAGE_SIZES } from './image-sizes.js';

export function Gallery({ model, images }: { model: SiteModel; images: readonly OgImage[] }) {
  const [main] = images;
  if (!main) return null;
  return (
    <div className="gallery" data-gallery="" data-zoom-max="3">
      <img
        data-gallery-main=""
        src={main.url}
        {...responsive(model, main.url, IMAGE_SIZES.gallery)}
        width={main.width}
        height={main.height}
        alt={main.alt}
        fetchPriority="high"
      />
      {images.length > 1 ? (
        <div className="gallery-thumbs">
          {images.map((img, i) => (
            <button
              key={i}
              type="button"
              data-gallery-thumb=""
              data-src={img.url}
              data-srcset={model.srcSets.get(img.url)}
              data-alt={img.alt}
              aria-label={`Show image ${i + 1}: ${img.alt}`}
            >
              <img src={img.url} {...responsive(model, img.url, IMAGE_SIZES.thumb)} width={img.width} height={img.height} alt="" loading="lazy" />
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
