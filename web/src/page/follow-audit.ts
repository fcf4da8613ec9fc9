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

/// Where the focus is inside `frame`, and back: a re-mounted figure keeps the reader's place. The
/// place is the focused control's kind and name (a slider's label, a button's text), else its index
/// among the figure's focusable elements (-1: the focus is elsewhere); a figure's later parts (a
/// chart's keyboard stop added once it draws) may come before it in the new frame.
const FOCUSABLE = 'input, button, select, textarea, summary, [tabindex]:not([tabindex="-1"])';
export interface FocusPlace {
  index: number;
  key: string;
}
const keyOf = (element: Element): string =>
  `${element.tagName}|${element.getAttribute('type') ?? ''}|${element.getAttribute('aria-label') ?? element.textContent?.trim() ?? ''}`;
export function focusPlace(frame: Element): FocusPlace {
  const active = document.activeElement;
  if (!active || !frame.contains(active)) return { index: -1, key: '' };
  return { index: [...frame.querySelectorAll(FOCUSABLE)].indexOf(active), key: keyOf(active) };
}
export function restoreFocus(frame: Element, place: FocusPlace): void {
  if (place.index < 0) return;
  const all = [...frame.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const same = all.filter((element) => keyOf(element) === place.key);
  (same.length === 1 ? same[0] : all[place.index])?.focus();
}
