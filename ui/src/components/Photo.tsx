import type { PhotoView } from '../api/contract.gen';

/**
 * A product's or a banner's photo at the size the browser shows it: WebP where the browser takes it, JPEG
 * otherwise, each chosen from every width made by `sizes` (what the layout gives the image) and
 * the screen's density. `width` and `height` are the photo's, so the page keeps its place for it
 * before it arrives. The addresses come from the API (`PhotoView`); nothing here knows the widths.
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
  return (
    <picture>
      <source type="image/webp" srcSet={photo.webp} sizes={sizes} />
      <img
        className={className}
        src={photo.src}
        srcSet={photo.jpeg}
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
