import { useMemo } from 'react';
import { qrMatrix } from './qr-matrix';

/**
 * A scannable QR code as inline SVG. Always dark modules on a light tile, in either theme: many
 * scanners cannot read an inverted code, so the dark theme frames the tile instead of inverting it.
 * `mark` is an image laid over the middle (the code's error correction covers it).
 */
export const QrCode = ({ value, label, mark }: { value: string; label: string; mark?: string }) => {
  const { size, path } = useMemo(() => qrMatrix(value), [value]);
  return (
    <div className="qr" data-testid="qr-code" data-value={value}>
      <svg
        className="qr__code"
        viewBox={`0 0 ${size} ${size}`}
        role="img"
        aria-label={label}
        shapeRendering="crispEdges"
      >
        <rect width={size} height={size} fill="#fff" />
        <path d={path} fill="#111318" />
      </svg>
      {mark ? (
        <span className="qr__mark" aria-hidden="true">
          <img src={mark} alt="" width={40} height={40} />
        </span>
      ) : null}
    </div>
  );
};
