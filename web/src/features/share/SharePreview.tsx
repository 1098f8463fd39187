import type { Resource } from '@cabinet/protocol';

/**
 * A file of a link shown in the page: images, audio, video and PDF through the browser's own
 * players, from the link's inline download address. Other files show nothing (download them).
 */
export function SharePreview({ item, src }: { item: Resource; src: string }) {
  switch (item.type) {
    case 'image':
      return <img className="public-share__preview" src={src} alt={item.name} />;
    case 'audio':
      return <audio className="public-share__audio" src={src} controls aria-label={item.name} />;
    case 'video':
      return <video className="public-share__preview" src={src} controls aria-label={item.name} />;
    case 'pdf':
      return <iframe className="public-share__pdf" src={src} title={item.name} />;
    default:
      return null;
  }
}
