import type { TierRewardJson } from '@shared/api/arcade';

/** Pixel icons of the three reward kinds (decorative: the text beside them says what they are). */
export function RewardIcon({ kind }: { kind: TierRewardJson['kind'] }) {
  return (
    <svg
      className={`reward-icon reward-icon--${kind}`}
      width="28"
      height="28"
      viewBox="0 0 8 8"
      shapeRendering="crispEdges"
      aria-hidden="true"
    >
      {kind === 'coins' && (
        <>
          <path
            fill="#000"
            d="M2 0h4v1H2zM1 1h1v1H1zM6 1h1v1H6zM0 2h1v4H0zM7 2h1v4H7zM1 6h1v1H1zM6 6h1v1H6zM2 7h4v1H2z"
          />
          <path fill="#ffd23f" d="M2 1h4v1H2zM1 2h6v4H1zM2 6h4v1H2z" />
          <path fill="#b8860b" d="M3 2h2v1H3zM3 5h2v1H3zM3 3h1v2H3z" />
        </>
      )}
      {kind === 'boost' && (
        <>
          <path fill="#000" d="M4 0h3v1H4zM3 1h1v2H3zM2 3h1v1H2zM1 4h4v1H1zM4 5h1v1H4zM3 6h1v1H3zM2 7h1v1H2z" />
          <path fill="#00f0ff" d="M4 1h3v1H4zM4 2h2v1H4zM3 3h3v1H3zM5 4h2v1H5zM5 5h1v1H5zM4 6h1v1H4zM3 7h1v1H3z" />
        </>
      )}
      {kind === 'gems' && (
        <>
          <path
            fill="#000"
            d="M2 0h4v1H2zM1 1h1v1H1zM6 1h1v1H6zM0 2h1v2H0zM7 2h1v2H7zM1 4h1v1H1zM6 4h1v1H6zM2 5h1v1H2zM5 5h1v1H5zM3 6h2v1H3z"
          />
          <path fill="#ff2bd6" d="M2 1h4v1H2zM1 2h6v2H1zM2 4h4v1H2zM3 5h2v1H3z" />
          <path fill="#ffb3f0" d="M2 2h2v1H2z" />
        </>
      )}
    </svg>
  );
}
