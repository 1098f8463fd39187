import { lazy, Suspense } from 'react';

// qrcode.react only matters on the enrolment screen: loaded on demand, out of the entry chunk.
const QRCodeSVG = lazy(() => import('qrcode.react').then((m) => ({ default: m.QRCodeSVG })));

/** The otpauth URI as a QR code for the authenticator app, dark on white in both themes. */
export function QrCode({ value, label }: { value: string; label: string }) {
  return (
    <div className="two-factor__qr">
      <Suspense fallback={null}>
        <QRCodeSVG value={value} size={176} marginSize={2} title={label} role="img" />
      </Suspense>
    </div>
  );
}
