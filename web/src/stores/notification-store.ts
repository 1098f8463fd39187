import { create } from 'zustand';
import { isUnexpected } from '../api/api-error.ts';
import { UI_LIMITS } from '../config/ui-limits.ts';

export type NotificationKind = 'success' | 'error' | 'info';

/** One toast in the bottom-right stack. */
export interface Notification {
  id: number;
  kind: NotificationKind;
  message: string;
  /** Milliseconds until it hides by itself; null keeps it until closed (errors). */
  duration: number | null;
  /** Offers "Report issue": only for failures that are not the user's doing. */
  canReport: boolean;
  /** Work under way (a big move or copy): how much of it is done, shown as a bar. */
  progress?: { done: number; total: number };
  /** The action it reports on (e.g. "save:/notes.txt"): a success of it clears its errors. */
  action?: string;
}

/** How a toast is shown, beyond its kind and words. */
export interface NotifyOptions {
  /** Milliseconds until it hides by itself; null keeps it until closed. Default by kind. */
  duration?: number | null;
  canReport?: boolean;
  progress?: { done: number; total: number };
  /**
   * The action reported on. A success with an action takes that action's errors off the stack:
   * once the save or the password change went through, its earlier failure is no longer true.
   */
  action?: string;
}

interface NotificationState {
  notifications: Notification[];
  /** Shows a toast and returns its id. Errors stay until closed; others hide after a while. */
  notify(kind: NotificationKind, message: string, options?: NotifyOptions): number;
  /** Changes a toast in place (progress, words) without restarting its timer. */
  update(id: number, patch: Partial<Pick<Notification, 'message' | 'progress'>>): void;
  dismiss(id: number): void;
}

let nextId = 1;

/** Toasts: success auto-hides after 1000 ms, errors stay until closed. */
export const useNotificationStore = create<NotificationState>()((set) => ({
  notifications: [],
  notify(kind, message, options = {}) {
    const id = nextId++;
    const { duration = kind === 'error' ? null : UI_LIMITS.notificationMs, canReport = false } =
      options;
    const { progress, action } = options;
    const notification = { id, kind, message, duration, canReport, progress, action };
    const outdated = (n: Notification) =>
      kind === 'success' && action !== undefined && n.kind === 'error' && n.action === action;
    set((s) => ({ notifications: [...s.notifications.filter((n) => !outdated(n)), notification] }));
    return id;
  },
  update(id, patch) {
    set((s) => ({
      notifications: s.notifications.map((n) => (n.id === id ? { ...n, ...patch } : n)),
    }));
  },
  dismiss(id) {
    set((s) => ({ notifications: s.notifications.filter((n) => n.id !== id) }));
  },
}));

/** Shows a success toast (outside React too); with `action`, it clears that action's errors. */
export const notifySuccess = (message: string, action?: string) =>
  useNotificationStore.getState().notify('success', message, { action });

/** Shows an error toast that stays until closed, without "Report issue" (the user can act on it). */
export const notifyError = (message: string) =>
  useNotificationStore.getState().notify('error', message);

/**
 * Shows a failure in words for people (ApiError's message); "Report issue" only when the failure
 * is unexpected (5xx, no reply), never for a refusal of the user's own input. `message` replaces
 * the error's own words when the caller says more (which file, what is kept). `action` names what
 * failed, so that its next success clears this error.
 */
export const notifyFailure = (error: unknown, message?: string, action?: string) =>
  useNotificationStore
    .getState()
    .notify('error', message ?? (error instanceof Error ? error.message : String(error)), {
      canReport: isUnexpected(error),
      action,
    });
