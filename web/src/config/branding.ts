import { create } from 'zustand';
import { pageConfig } from './page-config.ts';

/** The branding a page shows: the instance name and the theme ("" follows the browser). */
export interface LiveBranding {
  name: string;
  theme: string;
}

/**
 * The branding of the open page. It starts from the page configuration and changes when an
 * administrator saves new global settings, in this tab and in the browser's other tabs (a
 * BroadcastChannel carries the change), so nobody has to reload to see the new name or theme.
 */
export const useBrandingStore = create<LiveBranding>()(() => ({
  name: pageConfig.Name,
  theme: pageConfig.Theme,
}));

/** The tabs of this browser open on this Cabinet hear each other's branding changes. */
const CHANNEL = `cabinet-branding:${pageConfig.BaseURL}`;

/** Applies branding saved in this tab here and in the other open tabs. */
export function publishBranding(branding: LiveBranding): void {
  const next = { name: branding.name, theme: branding.theme };
  useBrandingStore.setState(next);
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(next);
  channel.close();
}

/** Listens for branding saved in another tab of this browser (called once at start-up). */
export function followBrandingOfOtherTabs(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    const data = event.data as Partial<LiveBranding> | null;
    if (typeof data?.name === 'string' && typeof data.theme === 'string') {
      useBrandingStore.setState({ name: data.name, theme: data.theme });
    }
  };
}

/** The product name shown in titles and the header: the instance name when one is set. */
export function productNameOf(name: string): string {
  return name || 'Cabinet';
}

/** The product name now (for code outside React). */
export function currentProductName(): string {
  return productNameOf(useBrandingStore.getState().name);
}

/** The product name, re-rendering when an administrator renames the instance. */
export function useProductName(): string {
  return productNameOf(useBrandingStore((s) => s.name));
}
