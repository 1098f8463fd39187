import { create } from 'zustand';
import { LIMITS } from '@cabinet/protocol';

export type NotificationKind = 'success' | 'error' | 'info';

/** One toast in the bottom-right stack. */
export interface Notification {
  id: number;
  kind: NotificationKind;
  message: string;
  /** Milliseconds until it hides by itself; null keeps it until closed (errors). */
  duration: number | null;
}

interface NotificationState {
  notifications: Notification[];
  /** Shows a toast and returns its id. Errors stay until closed; others hide after a while. */
  notify(kind: NotificationKind, message: string, duration?: number | null): number;
  dismiss(id: number): void;
}

let nextId = 1;

/** Toasts: success auto-hides after 1000 ms, errors stay until closed (SPEC.md sections 8 and 9). */
export const useNotificationStore = create<NotificationState>()((set) => ({
  notifications: [],
  notify(kind, message, duration) {
    const id = nextId++;
    const lifetime =
      duration !== undefined ? duration : kind === 'error' ? null : LIMITS.notificationMs;
    set((s) => ({
      notifications: [...s.notifications, { id, kind, message, duration: lifetime }],
    }));
    return id;
  },
  dismiss(id) {
    set((s) => ({ notifications: s.notifications.filter((n) => n.id !== id) }));
  },
}));

/** Shows a success toast (outside React too). */
export const notifySuccess = (message: string) =>
  useNotificationStore.getState().notify('success', message);

/** Shows an error toast that stays until closed. */
export const notifyError = (message: string) =>
  useNotificationStore.getState().notify('error', message);
