import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useHydrated } from '../page';

/** Banners advance every 8000 ms with a 300 ms transition. */
export const AUTOPLAY_MS = 8000;
export const TRANSITION_MS = 300;

function scrollToX(el: HTMLElement, x: number, ms: number) {
  const start = el.scrollLeft;
  const t0 = performance.now();
  const step = (now: number) => {
    const k = Math.min(1, (now - t0) / ms);
    el.scrollLeft = start + (x - start) * (1 - (1 - k) * (1 - k));
    if (k < 1) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

/**
 * A row of slides that scrolls with CSS scroll-snap (so it works without JavaScript, by touch,
 * trackpad and keyboard: the list is focusable), 3 per view and 1 at 480 px or less (CSS). With
 * JavaScript it adds previous/next buttons and, when asked, autoplay that pauses on hover, on
 * focus and for shoppers who prefer reduced motion.
 */
export function Carousel({
  label,
  children,
  autoplay = false,
  className = '',
}: {
  label: string;
  children: ReactNode[];
  autoplay?: boolean;
  className?: string;
}) {
  const list = useRef<HTMLUListElement>(null);
  const enhanced = useHydrated();
  const [paused, setPaused] = useState(false);

  const move = useCallback((dir: 1 | -1) => {
    const el = list.current;
    if (!el) return;
    const max = el.scrollWidth - el.clientWidth;
    let x = el.scrollLeft + dir * el.clientWidth;
    if (x > max + 1) x = 0;
    if (x < -1) x = max;
    scrollToX(el, Math.max(0, Math.min(max, x)), TRANSITION_MS);
  }, []);

  useEffect(() => {
    if (!autoplay || paused) return;
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const t = setInterval(() => move(1), AUTOPLAY_MS);
    return () => clearInterval(t);
  }, [autoplay, paused, move]);

  return (
    <div
      className={`carousel ${className}`}
      role="region"
      aria-roledescription="carousel"
      aria-label={`${label} carousel`}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <ul className="slides" ref={list} tabIndex={0} aria-label={`${label} slides`}>
        {children}
      </ul>
      {enhanced && children.length > 1 && (
        <div className="carousel-controls">
          <button type="button" className="icon" aria-label="Previous slides" onClick={() => move(-1)}>
            ‹
          </button>
          <button type="button" className="icon" aria-label="Next slides" onClick={() => move(1)}>
            ›
          </button>
        </div>
      )}
    </div>
  );
}
