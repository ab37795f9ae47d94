// Where the hero's pixel noise goes (spec §9): on each side, in the margin beside the 1200 px
// content (36–120 px wide), 4 tracks of 20 pixels of 3, 5 or 7 px at random heights, each with its
// own twinkle phase. Pure, so the canvas component only draws.

export interface NoisePixel {
  x: number;
  y: number;
  size: number;
  /** Index into the palette. */
  color: number;
  /** Seconds into the 4 s twinkle. */
  delay: number;
}

const TRACKS = 4;
const PIXELS_PER_TRACK = 20;
const GAP = 14;

/** Width of one side's strip, as `clamp(36px, (100vw - 1200px) / 2 - 24px, 120px)` did in CSS. */
export const noiseStripWidth = (viewportWidth: number) => Math.min(120, Math.max(36, (viewportWidth - 1200) / 2 - 24));

export function pixelNoiseLayout(
  width: number,
  height: number,
  viewportWidth: number,
  colors: number,
  random: () => number,
): NoisePixel[] {
  const strip = Math.min(noiseStripWidth(viewportWidth), width / 2);
  const gap = viewportWidth <= 1000 ? 6 : GAP;
  const track = Math.max(1, (strip - gap * (TRACKS - 1)) / TRACKS);
  const pixels: NoisePixel[] = [];
  for (const side of [0, 1]) {
    for (let t = 0; t < TRACKS; t++) {
      const offset = t * (track + gap);
      const x = side === 0 ? offset : width - offset - track;
      for (let i = 0; i < PIXELS_PER_TRACK; i++) {
        const size = 3 + Math.floor(random() * 3) * 2;
        pixels.push({
          x: Math.round(x),
          y: Math.round(random() * Math.max(0, height - size)),
          size,
          color: Math.floor(random() * colors),
          delay: random() * 4,
        });
      }
    }
  }
  return pixels;
}

/** The CSS `twinkle` it replaces: 0.45, dimming to 0.1 at half of each 4 s period, in 4 steps. */
export function twinkleOpacity(timeMs: number, delaySeconds: number): number {
  const phase = (((timeMs / 1000 + delaySeconds) % 4) + 4) % 4;
  const step = Math.floor(phase);
  // steps(4): 0.45 → 0.275 → 0.1 → 0.275.
  return [0.45, 0.275, 0.1, 0.275][step];
}
