import { Component, type ReactNode } from 'react';
import { ErrorPanel } from './ErrorScreen.tsx';

type Props = { blockType: string; children: ReactNode };
type State = { error: Error | null };

/** One failing block shows an error in its place; the rest of the page keeps working. */
export class BlockErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown) {
    console.error(`Block "${this.props.blockType}" failed to render`, error);
  }

  override render() {
    return this.state.error ? <ErrorPanel message={this.state.error.message} /> : this.props.children;
  }
}
