// A QR code as an SVG image: black on white with the standard's four-module quiet zone, so phone
// cameras read it on the dark theme too.
import { theme } from '@orepanel/sdk';
import { useMemo } from 'react';
import { encodeQr, qrPath } from './qr-code';

const QUIET_ZONE = 4;

export function QrCodeImage({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const code = useMemo(() => encodeQr(text), [text]);
  const units = code.size + QUIET_ZONE * 2;
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${units} ${units}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      css={{ display: 'block', maxWidth: '100%', height: 'auto', borderRadius: theme.radii.md }}
    >
      <rect width={units} height={units} fill="#fff" />
      <path d={qrPath(code, QUIET_ZONE)} fill="#000" />
    </svg>
  );
}
