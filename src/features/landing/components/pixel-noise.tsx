import { useMemo } from 'react';

const TRACKS = 4;
const PIXELS_PER_TRACK = 20;
const COLORS = ['var(--neon)', 'var(--neon-2)', 'var(--acid)', '#ffffff'];

interface Pixel {
  top: number;
  size: number;
  color: string;
  delay: number;
}

function track(): Pixel[] {
  return Array.from({ length: PIXELS_PER_TRACK }, () => ({
    top: Math.random() * 100,
    size: 3 + Math.floor(Math.random() * 3) * 2,
    color: COLORS[Math.floor(Math.random() * COLORS.length)],
    delay: Math.random() * 4,
  }));
}

/** Decorative pixel noise (spec §9): 4 tracks of about 20 random pixels on each half of the hero. */
export function PixelNoise() {
  const halves = useMemo(() => [0, 1].map(() => Array.from({ length: TRACKS }, track)), []);
  return (
    <div className="pixel-noise" aria-hidden="true">
      {halves.map((tracks, h) => (
        <div key={h} className={`pixel-noise__half pixel-noise__half--${h === 0 ? 'left' : 'right'}`}>
          {tracks.map((pixels, i) => (
            <div key={i} className="pixel-noise__track">
              {pixels.map((p, j) => (
                <span
                  key={j}
                  className="pixel-noise__px"
                  style={{ top: `${p.top}%`, width: p.size, height: p.size, background: p.color, animationDelay: `${p.delay}s` }}
                />
              ))}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
