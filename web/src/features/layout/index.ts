// The header slots pages fill with their own controls.
export { HeaderSlot, headerSlotRef, type HeaderSlotName } from './header-slots.tsx';
