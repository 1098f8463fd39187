// The search button (its overlay loads on first use).
export { SearchButton } from './SearchButton.tsx';
