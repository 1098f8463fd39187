import { QRCodeSVG } from 'qrcode.react';

/** A QR code of a share address (its own chunk: only loaded when someone asks for one). */
export function ShareQrCode({ value, label }: { value: string; label: string }) {
  return (
    <QRCodeSVG
      value={value}
      size={168}
      marginSize={2}
      role="img"
      aria-label={label}
      className="share-qr"
      bgColor="#ffffff"
      fgColor="#000000"
    />
  );
}
