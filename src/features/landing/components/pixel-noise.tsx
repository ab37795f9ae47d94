import { useEffect, useRef } from 'react';
import { pixelNoiseLayout, twinkleOpacity, type NoisePixel } from '../lib/pixel-noise-layout';

const COLOR_VARS = ['--neon', '--neon-2', '--acid'];
/** The twinkle moves in 4 steps per 4 s: redrawing more often would draw the same frame. */
const FRAME_MS = 250;

/**
 * Decorative pixel noise (spec §9): 4 tracks of about 20 random pixels on each half of the hero,
 * twinkling. One canvas drawn a few times a second instead of 160 animated elements: the main
 * thread barely notices it. Paused while the page is hidden; still (one frame) when the player
 * prefers reduced motion. Empty in the prerendered HTML (the pixels are random, so drawn here).
 */
export function PixelNoise() {
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx) return;
    const style = getComputedStyle(el);
    const colors = [...COLOR_VARS.map((v) => style.getPropertyValue(v).trim() || '#ffffff'), '#ffffff'];
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)');
    let pixels: NoisePixel[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    let frame = 0;

    const layout = () => {
      const ratio = window.devicePixelRatio || 1;
      const { width, height } = el.getBoundingClientRect();
      el.width = Math.round(width * ratio);
      el.height = Math.round(height * ratio);
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      pixels = pixelNoiseLayout(width, height, window.innerWidth, colors.length, Math.random);
    };
    const draw = (time: number) => {
      ctx.clearRect(0, 0, el.width, el.height);
      for (const p of pixels) {
        ctx.globalAlpha = twinkleOpacity(time, p.delay);
        ctx.fillStyle = colors[p.color];
        ctx.fillRect(p.x, p.y, p.size, p.size);
      }
    };
    const stop = () => {
      clearTimeout(timer);
      cancelAnimationFrame(frame);
    };
    const run = () => {
      stop();
      draw(performance.now());
      if (reduced.matches || document.hidden) return;
      timer = setTimeout(() => (frame = requestAnimationFrame(run)), FRAME_MS);
    };
    const relayout = () => {
      layout();
      run();
    };
    relayout();
    const resize = new ResizeObserver(relayout);
    resize.observe(el);
    document.addEventListener('visibilitychange', run);
    reduced.addEventListener('change', run);
    return () => {
      stop();
      resize.disconnect();
      document.removeEventListener('visibilitychange', run);
      reduced.removeEventListener('change', run);
    };
  }, []);

  return <canvas ref={canvas} className="pixel-noise" aria-hidden="true" />;
}
