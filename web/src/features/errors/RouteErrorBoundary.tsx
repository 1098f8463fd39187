import { Component, type ReactNode } from 'react';
import type { Location } from 'react-router';
import { RouteErrorPage } from './RouteErrorPage.tsx';

interface Props {
  /** The location shown: a navigation elsewhere clears the error. */
  location: Location;
  children: ReactNode;
}

interface State {
  error: unknown;
  location: Location;
}

/**
 * Around every route: a page that fails to load (its chunk timed out) or to render shows the
 * internal error page, until the next navigation.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { error: undefined, location: this.props.location };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('A page failed') };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.location === state.location
      ? null
      : { error: undefined, location: props.location };
  }

  override render() {
    return this.state.error === undefined ? (
      this.props.children
    ) : (
      <RouteErrorPage error={this.state.error} />
    );
  }
}
