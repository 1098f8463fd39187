/**
 * A subtitle track's label and language: "movie.de.srt" is labelled with its file name and has
 * the language "de" (a two- or three-letter segment, optionally with a region, before the
 * extension is taken as a language).
 */
export function subtitleTrack(path: string): { label: string; language?: string } {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const language = /\.([a-z]{2,3}(?:-[a-z]{2,4})?)\.[^.]+$/i.exec(name)?.[1];
  return { label: name, language };
}
