import { pageConfig } from '../../config/page-config.ts';

/** Whether the server makes big previews; without them the viewer always shows the original. */
export const hasBigPreviews = pageConfig.ResizePreview;
