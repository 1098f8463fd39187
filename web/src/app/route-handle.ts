/** What a route tells the shell about itself. */
export interface RouteHandle {
  /** i18n key of the route's title; the page title becomes "<title> - <name>". */
  title?: string;
}
