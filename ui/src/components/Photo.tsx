import type { PhotoView } from '../api/contract.gen';
import { useSavingData } from '../page';

/**
 * The widest photo offered to a browser that saves data (`Save-Data: on`): a product page's photo
 * at one pixel per CSS pixel on a phone, where a dense screen would otherwise fetch 1,200 and more.
 */
export const SAVE_DATA_WIDTH = 480;

/** The candidates of a `srcset` (`url 480w, ...`) no wider than `max` (the narrowest always stays). */
export function narrowed(srcset: string, max: number): string {
  const candidates = srcset.split(',').map((c) => c.trim()).filter(Boolean);
  const width = (c: string) => Number(/\s(\d+)w$/.exec(c)?.[1] ?? 0);
  const kept = candidates.filter((c) => width(c) <= max);
  return (kept.length > 0 ? kept : candidates.slice(0, 1)).join(', ');
}

/**
 * A product's or a banner's photo at the size the browser shows it: WebP where the browser takes it, JPEG
 * otherwise, each chosen from every width made by `sizes` (what the layout gives the image) and
 * the screen's density. `width` and `height` are the photo's, so the page keeps its place for it
 * before it arrives. The addresses come from the API (`PhotoView`); a browser saving data is
 * offered those up to SAVE_DATA_WIDTH.
 */
export function Photo({
  photo,
  alt,
  sizes,
  className,
  eager = false,
}: {
  photo: PhotoView;
  alt: string;
  sizes: string;
  className?: string;
  eager?: boolean;
}) {
  const saving = useSavingData();
  const offered = (srcset: string) => (saving ? narrowed(srcset, SAVE_DATA_WIDTH) : srcset);
  return (
    <picture>
      <source type="image/webp" srcSet={offered(photo.webp)} sizes={sizes} />
      <img
        className={className}
        src={photo.src}
        srcSet={offered(photo.jpeg)}
        sizes={sizes}
        alt={alt}
        width={photo.width}
        height={photo.height}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
      />
    </picture>
  );
}

/** What a product card's image takes of the page: the list's 2, 3 or 4 columns (styles.css `.grid`). */
export const CARD_SIZES = '(min-width: 1200px) 283px, (min-width: 1024px) calc(25vw - 17px), (min-width: 720px) calc(33vw - 19px), calc(50vw - 22px)';
