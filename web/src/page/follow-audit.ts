/// A figure on the full page whose parameter follows the audit's grid minimum: index.html marks its
/// place with `data-kl-follow-audit="<parameter>"` (Figure 12.3's right panel, whose caption names
/// the audit's h, draws its map at that h). It follows while the reader has not chosen a value of
/// their own: not one from the address, and not a change made in the figure since it last followed.
import { onAuditMinimum } from '../ui/host/live-values';

export interface Follower {
  /// The figure's state now, or null before it mounts.
  state(): Readonly<Record<string, unknown>> | null;
  /// Shows the figure at `value` of the parameter (re-mounted, or mounted later with it).
  show(value: number): void;
}

export function followAudit(parameter: string, fromAddress: boolean, follower: Follower): void {
  /// The audit's h the figure was last set to (null: not yet).
  let followed: number | null = null;
  onAuditMinimum(({ bandwidth }) => {
    const shown = follower.state()?.[parameter];
    const following = followed === null ? !fromAddress : shown === undefined || shown === followed;
    if (!following) return;
    followed = bandwidth;
    if (shown !== bandwidth) follower.show(bandwidth);
  });
}

/// Where the focus is inside `frame`, as the index of the focused control among its focusable
/// ones (-1: elsewhere), and back: a re-mounted figure keeps the reader's place.
const FOCUSABLE = 'input, button, select, textarea, summary, [tabindex]:not([tabindex="-1"])';
export function focusIndex(frame: Element): number {
  const active = document.activeElement;
  return active && frame.contains(active) ? [...frame.querySelectorAll(FOCUSABLE)].indexOf(active) : -1;
}
export function restoreFocus(frame: Element, index: number): void {
  if (index >= 0) (frame.querySelectorAll(FOCUSABLE)[index] as HTMLElement | undefined)?.focus();
}
