import { useEffect } from 'react';
import { productName } from '../config/page-config.ts';

/** Sets the page title to "<title> - <name>" while the calling component shows. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} - ${productName}`;
  }, [title]);
}
