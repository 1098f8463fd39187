import { useEffect } from 'react';
import { useProductName } from '../config/branding.ts';

/** Sets the page title to "<title> - <name>" while the calling component shows. */
export function useDocumentTitle(title: string): void {
  const productName = useProductName();
  useEffect(() => {
    document.title = `${title} - ${productName}`;
  }, [title, productName]);
}
