import { CircleCheck, Upload } from 'lucide-react';
import { useId, useState, type DragEvent } from 'react';
import { uploadToRequest } from '../../api/shares/public-upload.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { ProgressBar } from '../../components/ProgressBar.tsx';

interface Sent {
  name: string;
  percent: number;
  error?: string;
}

/**
 * The upload area of a file request: pick or drop files, watch each one's progress, then a
 * thank-you. Visitors never see what is in the folder.
 */
export function ShareUploadArea({ hash, password }: { hash: string; password: string }) {
  const { t } = useTranslation();
  const inputId = useId();
  const [sent, setSent] = useState<Sent[]>([]);
  const [isBusy, setBusy] = useState(false);
  const [isOver, setOver] = useState(false);

  const send = async (files: File[]) => {
    if (files.length === 0 || isBusy) return;
    setBusy(true);
    const start = sent.length;
    setSent((list) => [...list, ...files.map((file) => ({ name: file.name, percent: 0 }))]);
    const update = (index: number, patch: Partial<Sent>) =>
      setSent((list) =>
        list.map((item, i) => (i === start + index ? { ...item, ...patch } : item)),
      );
    for (const [index, file] of files.entries()) {
      try {
        const name = await uploadToRequest(hash, file, password, (loaded) =>
          update(index, { percent: file.size ? Math.round((loaded / file.size) * 100) : 100 }),
        );
        update(index, { name, percent: 100 });
      } catch (error) {
        update(index, { error: error instanceof Error ? error.message : String(error) });
      }
    }
    setBusy(false);
  };

  const handleDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    void send([...event.dataTransfer.files]);
  };

  const isDone = !isBusy && sent.length > 0;
  const failed = sent.filter((item) => item.error).length;
  return (
    <div className="share-upload">
      <div
        className="share-upload__drop"
        data-over={isOver}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={handleDrop}
      >
        <Upload size={32} aria-hidden="true" />
        <p>{t('share.dropHere')}</p>
        <label htmlFor={inputId} className="button">
          {t('share.chooseFiles')}
        </label>
        <input
          id={inputId}
          className="visually-hidden"
          type="file"
          multiple
          disabled={isBusy}
          onChange={(event) => {
            void send([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
      </div>
      {sent.length > 0 && (
        <ul className="share-upload__list" aria-label={t('share.sentFiles')}>
          {sent.map((item, index) => (
            <li key={index} className="share-upload__item">
              <bdi className="share-upload__name">{item.name}</bdi>
              {item.error ? (
                <span className="field__error">{item.error}</span>
              ) : (
                <ProgressBar label={item.name} percent={item.percent} />
              )}
            </li>
          ))}
        </ul>
      )}
      {isDone && failed < sent.length && (
        <p className="share-upload__thanks" role="status">
          <CircleCheck size={20} aria-hidden="true" />
          {t('share.thanks', { count: sent.length - failed })}
        </p>
      )}
    </div>
  );
}
