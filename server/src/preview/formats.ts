/**
 * Which decoder makes the picture of a file, by extension (docs/previews.md). `image` is sharp
 * alone; every other family runs a Debian tool through the process runner first.
 */
export type PreviewFamily = 'image' | 'heic' | 'raw' | 'video' | 'audio' | 'pdf' | 'office';

const FAMILIES: Record<string, PreviewFamily> = {};
function add(family: PreviewFamily, extensions: string): void {
  for (const extension of extensions.split(' ')) FAMILIES[extension] = family;
}
add('image', 'jpg jpeg jpe jfif png webp tif tiff avif');
add('heic', 'heic heif hif');
add('raw', 'cr2 cr3 nef arw dng raf orf rw2 pef srw');
add('video', 'mp4 m4v mov mkv webm avi 3gp 3g2 mpg mpeg ts mts m2ts wmv flv ogv');
add('audio', 'mp3 m4a flac ogg oga opus wma aac wav aiff aif');
add('pdf', 'pdf');
add(
  'office',
  'doc docx docm dot dotx rtf odt ott fodt xls xlsx xlsm ods ots fods csv ppt pptx pps ppsx odp otp fodp odg',
);

/** The family of a file name, or undefined when Cabinet makes no picture of it. */
export function familyOf(name: string): PreviewFamily | undefined {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return undefined;
  return FAMILIES[name.slice(dot + 1).toLowerCase()];
}
