/**
 * The hero illustration: a pixel mining rig with a blinking screen and rising PXT coins (pure SVG +
 * CSS). Only the still body casts the drop shadow; what blinks and rises sits beside it, unfiltered:
 * a filtered layer whose content changes is blurred again on every frame (about half a core of a
 * phone without GPU raster, on a page that otherwise rests). The blinking parts lie on the opaque
 * body, whose shadow already covers theirs, so the picture is the same.
 */
export function PixelRig() {
  return (
    <div className="rig" aria-hidden="true">
      <svg viewBox="0 0 64 64" shapeRendering="crispEdges" className="rig__svg">
        <rect x="10" y="22" width="44" height="34" fill="#24163d" />
        <rect x="10" y="22" width="44" height="2" fill="#ff2bd6" />
        <rect x="8" y="24" width="2" height="32" fill="#000" />
        <rect x="54" y="24" width="2" height="32" fill="#000" />
        <rect x="10" y="56" width="44" height="2" fill="#000" />
        <rect x="14" y="27" width="36" height="16" fill="#06030c" />
        <g className="rig__screen">
          <rect x="16" y="29" width="4" height="2" fill="#b6ff00" />
          <rect x="22" y="29" width="12" height="2" fill="#b6ff00" />
          <rect x="16" y="33" width="20" height="2" fill="#00f0ff" />
          <rect x="16" y="37" width="8" height="2" fill="#ff2bd6" />
        </g>
        <rect x="14" y="46" width="6" height="6" fill="#00f0ff" />
        <rect x="30" y="48" width="20" height="2" fill="#3a2760" />
        <rect x="30" y="51" width="14" height="2" fill="#3a2760" />
        <rect x="18" y="14" width="2" height="8" fill="#3a2760" />
        <rect x="16" y="12" width="6" height="2" fill="#ff2bd6" />
        <rect x="44" y="16" width="2" height="6" fill="#3a2760" />
        <rect x="42" y="14" width="6" height="2" fill="#00f0ff" />
      </svg>
      <svg viewBox="0 0 64 64" shapeRendering="crispEdges" className="rig__blinks">
        <rect x="26" y="37" width="6" height="2" fill="#ff2bd6" className="rig__cursor" />
        <rect x="22" y="46" width="6" height="6" fill="#ff2bd6" className="rig__led" />
      </svg>
      {[0, 1, 2].map((i) => (
        <span key={i} className={`rig__coin rig__coin--${i}`} />
      ))}
    </div>
  );
}
