// The miner's rig as small pixel art (inline SVG, no image request). `celebrate` plays a short
// burst when a claim pays out; reduced motion keeps it still (mining.css).
export function RigArt({ celebrate = false, working = false }: { celebrate?: boolean; working?: boolean }) {
  const cls = `rig-art${celebrate ? ' rig-art--celebrate' : ''}${working ? ' rig-art--working' : ''}`;
  return (
    <svg
      className={cls}
      viewBox="0 0 32 20"
      width="128"
      height="80"
      shapeRendering="crispEdges"
      aria-hidden="true"
      data-testid="rig-art"
    >
      <rect x="4" y="6" width="20" height="12" fill="#2e3350" />
      <rect x="5" y="7" width="18" height="10" fill="#0b0f1a" />
      <g className="rig-art__fan">
        <rect x="7" y="9" width="6" height="6" fill="#1d2236" />
        <rect x="9" y="9" width="2" height="6" fill="#28d7ff" />
        <rect x="7" y="11" width="6" height="2" fill="#28d7ff" />
      </g>
      <rect className="rig-art__led" x="15" y="9" width="2" height="2" fill="#b6ff00" />
      <rect className="rig-art__led rig-art__led--two" x="18" y="9" width="2" height="2" fill="#ff3df2" />
      <rect x="15" y="13" width="6" height="1" fill="#28d7ff" />
      <rect x="15" y="15" width="4" height="1" fill="#28d7ff" />
      <rect x="24" y="12" width="4" height="2" fill="#2e3350" />
      <rect x="2" y="18" width="28" height="2" fill="#1d2236" />
      <g className="rig-art__coins">
        <rect x="26" y="8" width="3" height="3" fill="#ffe14d" />
        <rect x="27" y="9" width="1" height="1" fill="#b38f00" />
        <rect x="22" y="3" width="2" height="2" fill="#ffe14d" />
        <rect x="27" y="2" width="2" height="2" fill="#ffe14d" />
      </g>
    </svg>
  );
}
