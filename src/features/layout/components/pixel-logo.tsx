/** The PXT mark: a pixel skull-coin, drawn with crisp squares. */
export function PixelLogo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" shapeRendering="crispEdges" aria-hidden="true">
      <path
        fill="#ff2bd6"
        d="M5 1h6v1H5zM3 2h2v1H3zM11 2h2v1h-2zM2 3h1v2H2zM13 3h1v2h-1zM1 5h1v6H1zM14 5h1v6h-1zM2 11h1v2H2zM13 11h1v2h-1zM3 13h2v1H3zM11 13h2v1h-2zM5 14h6v1H5z"
      />
      <path fill="#00f0ff" d="M5 4h6v1H5zM4 5h8v3H4zM5 8h6v1H5zM6 9h1v2H6zM9 9h1v2H9z" />
      <path fill="#0b0714" d="M5 6h2v1H5zM9 6h2v1H9zM7 8h2v1H7z" />
      <path fill="#b6ff00" d="M7 10h2v1H7zM6 11h4v1H6z" />
    </svg>
  );
}
