import { lazy, Suspense } from 'react';

const ShareQrCode = lazy(async () => ({
  default: (await import('./ShareQrCode.tsx')).ShareQrCode,
}));

/** The QR code of an address, fetched on demand (ARCHITECTURE.md: heavy parts load lazily). */
export function LazyQrCode({ value, label }: { value: string; label: string }) {
  return (
    <Suspense fallback={<span className="share-qr share-qr--loading" aria-hidden="true" />}>
      <ShareQrCode value={value} label={label} />
    </Suspense>
  );
}
