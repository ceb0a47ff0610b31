import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { BannerView, NoticeAnswer } from '../../api/contract.gen';
import { Carousel } from '../../components/Carousel';
import { Photo } from '../../components/Photo';
import { ProductCard } from '../catalog';
import { useHead } from '../../head';
import { usePage, usePageParam } from '../../page';
import { AccountDeleted } from '../accounts';
import { productsQuery } from '../catalog/queries';
import { bannersQuery, noticeCitiesQuery, noticeQuery } from './queries';

function Notice({ notice, holiday }: NoticeAnswer & { notice: NonNullable<NoticeAnswer['notice']> }) {
  const cities = useQuery(noticeCitiesQuery.options());
  return (
    <section className="notice" aria-labelledby="notice-title">
      <h2 id="notice-title">{notice.title}</h2>
      <p>{notice.body}</p>
      {!holiday && (
        <form className="notice-picker" onSubmit={(e) => e.preventDefault()} aria-label="Delivery or pickup city">
          <fieldset>
            <legend>Delivery or pickup</legend>
            <label className="radio">
              <input type="radio" name="notice-fulfillment" value="delivery" defaultChecked /> Delivery
            </label>
            <label className="radio">
              <input type="radio" name="notice-fulfillment" value="pickup" /> Pickup
            </label>
          </fieldset>
          <label htmlFor="notice-city">City</label>
          <select id="notice-city" name="notice-city" defaultValue="">
            <option value="">Select city</option>
            {(cities.data?.results ?? []).map((c) => (
              <option key={c.city_id} value={c.city_id}>
                {c.city_name}
              </option>
            ))}
          </select>
        </form>
      )}
    </section>
  );
}

/** The store as search engines read it: the organisation and the website (JSON-LD). */
function useStoreHead(origin: string) {
  useHead({
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'Organization',
        name: 'Tala Brewing Co.',
        url: `${origin}/`,
        logo: `${origin}/img/favicon.svg`,
        email: 'hello@talabrewing.ph',
        telephone: '+63 917 123 4567',
        address: {
          '@type': 'PostalAddress',
          streetAddress: '12 J.P. Rizal Street, Barangka',
          addressLocality: 'Marikina City',
          addressRegion: 'Metro Manila',
          addressCountry: 'PH',
        },
      },
      { '@context': 'https://schema.org', '@type': 'WebSite', name: 'Tala Brewing Co.', url: `${origin}/` },
    ],
  });
}

/** What a banner's photo takes of the page: a whole slide of the page's column (styles.css `.wrap`, `.banners`). */
const BANNER_SIZES = '(min-width: 1200px) 1168px, calc(100vw - 32px)';

/** The featured banners' carousel, each with Buy Now; a banner's photo, else its images. */
function Banners({ banners }: { banners: BannerView[] }) {
  return (
    <Carousel label="Featured" autoplay className="banners">
      {banners.map((b, i) => (
        <li key={b.id} className="banner">
          {b.photo ? (
            <Photo photo={b.photo} alt={b.title} sizes={BANNER_SIZES} eager={i === 0} />
          ) : b.mobile_image || b.desktop_image ? (
            <picture>
              <source media="(min-width: 1200px)" srcSet={b.desktop_image || b.mobile_image} width={1200} height={400} />
              <img src={b.mobile_image || b.desktop_image} alt={b.title} width={480} height={480} loading={i === 0 ? 'eager' : 'lazy'} />
            </picture>
          ) : (
            // The store's words for missing content.
            <span className="no-img banner-img">
              {b.title}: No image available
            </span>
          )}
          <a className="button buy-now" href="/buy-beer">
            Buy Now
          </a>
        </li>
      ))}
    </Carousel>
  );
}

/** A strip of products with View all Products: RECOMMENDED FOR YOU, BEST SELLERS. */
function Strip({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="strip">
      <div className="strip-head">
        <h2 id={id}>{title}</h2>
        <a href="/buy-beer">View all Products</a>
      </div>
      {children}
    </section>
  );
}

export function Home() {
  const page = usePage();
  useStoreHead(page.origin);
  const banners = useQuery(bannersQuery.options(page.vars));
  const products = useQuery(productsQuery.options(page.vars));
  const notice = useQuery(noticeQuery.options(page.vars));
  const best = products.data?.best_sellers ?? [];
  // Members only: from their past orders once orders exist, until then the best sellers.
  const recommended = page.member ? (products.data?.recommended_products.length ? products.data.recommended_products : best) : [];
  return (
    <>
      {usePageParam('accountSuccessDelete') === 'yes' && <AccountDeleted />}
      <h1 className="visually-hidden">Tala Brewing Co.: beer delivered by the case</h1>
      {banners.data && banners.data.results.length > 0 && <Banners banners={banners.data.results} />}
      {notice.data?.notice && <Notice notice={notice.data.notice} holiday={notice.data.holiday} />}
      {page.member && recommended.length > 0 && (
        <Strip id="recommended-title" title="RECOMMENDED FOR YOU">
          <Carousel label="Recommended for you">
            {recommended.map((p) => (
              <ProductCard key={p.id} product={p} />
            ))}
          </Carousel>
        </Strip>
      )}
      <Strip id="best-title" title="BEST SELLERS">
        {products.isPending ? (
          <p role="status">Loading products…</p>
        ) : best.length === 0 ? (
          <p className="empty">No best sellers are available for your location yet.</p>
        ) : (
          <Carousel label="Best sellers">
            {best.map((p) => (
              <ProductCard key={p.id} product={p} />
            ))}
          </Carousel>
        )}
      </Strip>
    </>
  );
}
