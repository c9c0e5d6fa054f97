/** Loading data in a view: the value, the error and a reload, with stale answers dropped. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/** A load's state. */
export interface Loaded<T> {
  value: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs `fn` when `deps` change; an answer that arrives after a newer request started is dropped.
 * @example
 * const { value, error } = useLoad(() => api.collections(false), [api]);
 */
export function useLoad<T>(fn: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ value?: T; error?: Error; loading: boolean }>({ loading: true });
  const seq = useRef(0);
  const load = () => {
    const n = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    fn().then(
      (value) => n === seq.current && setState({ value, loading: false }),
      (error: Error) => n === seq.current && setState({ error, loading: false }),
    );
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps decide when to load again (fn is a new closure each render).
  const run = useCallback(load, deps);
  useEffect(run, [run]);
  return { value: state.value, error: state.error, loading: state.loading, reload: run };
}
