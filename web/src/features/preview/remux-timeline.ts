/** Whether the browser can go to `seconds` of the playing stream by itself (no reload). */
export function isSeekable(ranges: TimeRanges, seconds: number): boolean {
  for (let i = 0; i < ranges.length; i++) {
    // A stream the browser cannot seek in reports one empty range at zero.
    if (ranges.end(i) > ranges.start(i) && seconds >= ranges.start(i) && seconds <= ranges.end(i)) {
      return true;
    }
  }
  return false;
}

/**
 * Moves every loaded subtitle cue of a video so that it shows at the right moment of a stream
 * that starts `base` seconds into the video (subtitle files count from the video's start).
 * `applied` remembers each track's current shift, so calling again moves by the difference;
 * tracks that load later are moved when their `load` event comes (RemuxVideo listens).
 */
export function shiftCues(
  video: HTMLVideoElement,
  base: number,
  applied: WeakMap<TextTrack, number>,
): void {
  for (const track of Array.from(video.textTracks)) {
    const cues = track.cues;
    if (!cues || cues.length === 0) continue;
    const delta = base - (applied.get(track) ?? 0);
    if (delta === 0) continue;
    for (const cue of Array.from(cues)) {
      cue.startTime -= delta;
      cue.endTime -= delta;
    }
    applied.set(track, base);
  }
}
