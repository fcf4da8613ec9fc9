/// A figure's long job (see JobSpec in widget.ts): a progress bar, a status line, Run and Cancel.
import { isRefusal, type CoreCall, type CoreResults } from '../../engine';
import { button } from '../controls';
import { setText } from '../readout';
import type { Job, JobSpec } from './widget';

/// What a job needs of its figure's host.
export interface JobHost {
  run<const C extends readonly CoreCall[]>(calls: C, signal: AbortSignal): Promise<CoreResults<C>>;
  /// Counts the run as the figure's work under way (its drawn signal waits for it).
  track(work: Promise<unknown>): void;
  /// Shows why the job stopped; `retry` (when a part of the core could not be loaded) runs it again.
  showError(error: unknown, retry?: () => void): void;
  clearError(): void;
  /// Says a sentence in the figure's live region (the run's start, cancel, end; never its progress).
  say(text: string): void;
  /// Registers what stops the job when the figure goes.
  own(stop: () => void): void;
}

const isAbort = (error: unknown): boolean => error instanceof Error && error.name === 'AbortError';

function abortError(): Error {
  const error = new Error('the computation was cancelled');
  error.name = 'AbortError';
  return error;
}

export function createJob(spec: JobSpec, host: JobHost): Job {
  const element = document.createElement('div');
  element.className = 'kl-progress';
  const bar = document.createElement('progress');
  bar.setAttribute('aria-label', `${spec.name} progress`);
  bar.value = 0;
  const status = document.createElement('span');
  status.className = 'kl-progress__status';
  // Not a live region: the run's progress is shown, not read; its start and end are said.
  if (spec.statusTestId) status.dataset.testid = spec.statusTestId;
  const runButton = button(spec.runLabel, () => job.start());
  const cancelButton = button('Cancel', () => job.cancel());
  cancelButton.disabled = true;
  element.append(bar, status, runButton, cancelButton);

  let controller: AbortController | null = null;
  let done = 0;
  let total = 0;

  /// Enables the button that fits the state; focus on the one that disables itself moves to the other.
  function setRunning(on: boolean): void {
    const losing = on ? runButton : cancelButton;
    const gaining = on ? cancelButton : runButton;
    const hadFocus = losing.ownerDocument.activeElement === losing || (losing.getRootNode() as Document | ShadowRoot).activeElement === losing;
    gaining.disabled = false;
    losing.disabled = true;
    if (hadFocus) gaining.focus();
  }

  const job: Job = {
    element,
    get running() {
      return controller !== null;
    },
    start() {
      controller?.abort();
      const mine = new AbortController();
      controller = mine;
      done = 0;
      total = 0;
      bar.value = 0;
      host.clearError();
      setRunning(true);
      host.say(`${spec.name} started.`);
      const work = spec.work({
        // An answer that arrives once the run is cancelled (a step on the page whose module was
        // still loading) is not handed on either.
        step: (calls) =>
          host.run(calls, mine.signal).then((results) => {
            if (mine.signal.aborted) throw abortError();
            return results;
          }),
        progress(stepsDone, stepsTotal, text) {
          if (mine.signal.aborted) return;
          done = stepsDone;
          total = stepsTotal;
          bar.max = Math.max(1, stepsTotal);
          bar.value = stepsDone;
          setText(status, text);
        },
        signal: mine.signal,
      });
      host.track(work);
      work.then(
        (text) => {
          if (controller !== mine) return;
          controller = null;
          setText(status, text);
          setRunning(false);
          host.say(`${spec.name} ${text}${spec.summary ? `. ${spec.summary()}` : ''}.`);
        },
        (error: unknown) => {
          if (controller !== mine) return;
          controller = null;
          if (!isAbort(error)) {
            host.showError(error, isRefusal(error) ? undefined : () => job.start());
            setText(status, spec.stopped(done, total));
            host.say(`${spec.name} ${spec.stopped(done, total)}.`);
          }
          setRunning(false);
        },
      );
    },
    cancel() {
      if (!controller) return;
      const running = controller;
      controller = null;
      running.abort();
      setText(status, spec.cancelled(done, total));
      setRunning(false);
      host.say(`${spec.name} ${spec.cancelled(done, total)}.`);
    },
  };
  host.own(() => {
    const running = controller;
    controller = null;
    running?.abort();
  });
  return job;
}
