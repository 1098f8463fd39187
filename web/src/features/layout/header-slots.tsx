import { type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { create } from 'zustand';

/** Places in the header that pages fill: search, the more-menu, and actions on the selection. */
export type HeaderSlotName = 'search' | 'actions' | 'selection';

interface HeaderSlotState {
  slots: Partial<Record<HeaderSlotName, HTMLElement | null>>;
  register(name: HeaderSlotName, element: HTMLElement | null): void;
}

const useHeaderSlotStore = create<HeaderSlotState>()((set) => ({
  slots: {},
  register(name, element) {
    set((s) => (s.slots[name] === element ? s : { slots: { ...s.slots, [name]: element } }));
  },
}));

/** Ref callback for the header element that hosts a slot. */
export function headerSlotRef(name: HeaderSlotName) {
  return (element: HTMLElement | null) => useHeaderSlotStore.getState().register(name, element);
}

/**
 * Renders its children in a header slot, so that a page owns its header buttons (and they leave
 * with it) while the header stays one component.
 */
export function HeaderSlot({ name, children }: { name: HeaderSlotName; children: ReactNode }) {
  const target = useHeaderSlotStore((s) => s.slots[name]);
  return target ? createPortal(children, target) : null;
}
