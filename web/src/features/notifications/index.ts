// The notification stack shown over every page.
export { Notifications } from './Notifications.tsx';
