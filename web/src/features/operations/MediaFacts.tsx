import { previewFamilyOf, type ResourceItem } from '@cabinet/protocol';
import { useMediaInfoQuery } from '../../api/resources/media-info-query.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { formatClock } from '../../format/clock.ts';

/** Families whose info the server reads (docs/previews.md). */
const WITH_INFO = new Set(['image', 'heic', 'raw', 'video', 'audio']);

/**
 * The info dialog's lines for a photo (camera, lens, exposure, date taken) or a video or audio
 * file (duration, tags), once the server has read them; nothing for other files or when the
 * server has no answer.
 */
export function MediaFacts({
  file,
  Fact,
}: {
  file: ResourceItem;
  Fact: (props: { term: string; children: React.ReactNode }) => React.ReactNode;
}) {
  const { t } = useTranslation();
  const family = previewFamilyOf(file.name);
  const enabled = !file.isDir && family !== undefined && WITH_INFO.has(family);
  const { data } = useMediaInfoQuery(file.path, file.modified, enabled);
  if (!enabled || !data) return null;
  const tags = Object.entries(data.tags ?? {})
    .filter(([key]) => ['title', 'artist', 'album', 'album_artist', 'date', 'genre'].includes(key))
    .map(([key, value]) => `${key}: ${value}`)
    .join(' · ');
  return (
    <>
      {data.camera && <Fact term={t('ops.camera')}>{data.camera}</Fact>}
      {data.lens && <Fact term={t('ops.lens')}>{data.lens}</Fact>}
      {data.exposure && (
        <Fact term={t('ops.exposure')}>
          <span className="bidi-ltr">{data.exposure}</span>
        </Fact>
      )}
      {data.taken && (
        <Fact term={t('ops.dateTaken')}>
          <span className="bidi-ltr">{data.taken}</span>
        </Fact>
      )}
      {data.durationSeconds !== undefined && (
        <Fact term={t('ops.duration')}>
          <span className="bidi-ltr">{formatClock(data.durationSeconds)}</span>
        </Fact>
      )}
      {tags && <Fact term={t('ops.tags')}>{tags}</Fact>}
    </>
  );
}
