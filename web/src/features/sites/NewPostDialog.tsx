import type { Post } from '@cabinet/protocol';
import { useId, useState } from 'react';
import { usePostCreateMutation } from '../../api/sites/post-mutations.ts';
import { siteErrorCode } from '../../api/sites/site-error-code.ts';
import { useArchetypesQuery } from '../../api/sites/site-queries.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { CancelSubmitActions } from '../../components/CancelSubmitActions.tsx';
import { useInitialFocus } from '../../hooks/use-initial-focus.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { isUsableSlug, slugOf } from './slug.ts';

/**
 * New post: a template (archetype), a title, the slug it gives (shown, and editable once typed
 * in), the section. A taken slug keeps the dialog open and asks for another one beside the field.
 */
export function NewPostDialog({
  site,
  onCreated,
  onClose,
}: {
  site: string;
  onCreated: (post: Post) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const archetypes = useArchetypesQuery(site);
  const create = usePostCreateMutation(site);
  const [archetype, setArchetype] = useState('');
  const [title, setTitle] = useState('');
  // Follows the title until the user types a slug of their own.
  const [typedSlug, setTypedSlug] = useState<string | null>(null);
  const [section, setSection] = useState('posts');
  const [problem, setProblem] = useState<{ field: 'title' | 'slug' | 'form'; message: string }>();
  const titleRef = useInitialFocus<HTMLInputElement>();
  const slug = typedSlug ?? slugOf(title);
  const chosenArchetype = archetype || archetypes.data?.[0]?.name || '';

  const submit = () => {
    if (create.isPending) return;
    if (!title.trim()) return setProblem({ field: 'title', message: t('sites.titleRequired') });
    if (!isUsableSlug(slug)) return setProblem({ field: 'slug', message: t('sites.slugInvalid') });
    setProblem(undefined);
    create.mutate(
      {
        title: title.trim(),
        slug,
        section: section.trim(),
        ...(chosenArchetype ? { archetype: chosenArchetype } : {}),
      },
      {
        onSuccess: onCreated,
        onError: (error) =>
          setProblem(
            siteErrorCode(error) === 'slug_taken'
              ? { field: 'slug', message: t('sites.slugTaken') }
              : { field: 'form', message: error.message },
          ),
      },
    );
  };

  const fieldError = (field: 'title' | 'slug') =>
    problem?.field === field ? (
      <p id={`${id}-${field}-error`} className="field__error" role="alert">
        {problem.message}
      </p>
    ) : null;
  const invalid = (field: 'title' | 'slug') =>
    problem?.field === field
      ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}-error` }
      : {};

  return (
    <Dialog
      title={t('sites.newPost')}
      onClose={onClose}
      onSubmit={submit}
      actions={
        <CancelSubmitActions
          cancelLabel={t('buttons.cancel')}
          submitLabel={t('buttons.create')}
          onCancel={onClose}
          busy={create.isPending}
        />
      }
    >
      <div className="new-post">
        <div className="field">
          <label className="field__label" htmlFor={`${id}-archetype`}>
            {t('sites.archetype')}
          </label>
          <select
            id={`${id}-archetype`}
            className="input"
            value={chosenArchetype}
            disabled={!archetypes.data || archetypes.data.length === 0}
            onChange={(e) => setArchetype(e.target.value)}
          >
            {archetypes.data?.map((a) => (
              <option key={a.name} value={a.name}>
                {a.name}
              </option>
            ))}
          </select>
          {archetypes.isError && (
            <p className="field__error" role="alert">
              {t('sites.archetypesFailed')}
            </p>
          )}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-title`}>
            {t('sites.postTitle')}
          </label>
          <input
            ref={titleRef}
            id={`${id}-title`}
            className="input"
            dir="auto"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            {...invalid('title')}
          />
          {fieldError('title')}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-slug`}>
            {t('sites.slug')}
          </label>
          <input
            id={`${id}-slug`}
            className="input"
            dir="ltr"
            value={slug}
            spellCheck={false}
            autoCapitalize="off"
            onChange={(e) => setTypedSlug(e.target.value)}
            {...invalid('slug')}
          />
          <span className="settings__help new-post__file" dir="ltr">
            content/{section.trim() ? `${section.trim()}/` : ''}
            {slug || '…'}.md
          </span>
          {fieldError('slug')}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-section`}>
            {t('sites.section')}
          </label>
          <input
            id={`${id}-section`}
            className="input"
            dir="ltr"
            value={section}
            spellCheck={false}
            autoCapitalize="off"
            onChange={(e) => setSection(e.target.value)}
          />
        </div>
        {problem?.field === 'form' && (
          <p className="field__error" role="alert">
            {problem.message}
          </p>
        )}
      </div>
    </Dialog>
  );
}
