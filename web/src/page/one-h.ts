/// One h for the whole page: a control in the page's header that shows every figure with a
/// bandwidth parameter `h` at the same h, so a reader sees one bandwidth's effect on the toy lookup,
/// the laboratory's curves and weights, the audit's marker and the exercises together. The link
/// goes both ways: moving h in a linked figure moves the page's h, and the other figures follow
/// once the reader's input settles. The address keeps it as the page's own entry `h=<value>`
/// (a figure's own `<figure>.h` gives way to it while the link is on).
///
/// The figures are the ones whose schema has a number parameter named `h` (the smoothing figure's
/// list of bandwidths, the audit's grid and learn-bandwidth's starting h are not one h); every one
/// of them takes the page's range, which `tests/unit/one-h.test.mjs` holds against the schemas.
import { echoed, parseParam } from '../ui/state';
/// The h every linked figure accepts (the narrowest of their ranges).
export const PAGE_H = { min: 0.05, max: 3 } as const;
/// The address entry of the page's h.
export const PAGE_H_PARAM = 'h';
/// How long the reader's input in a figure settles before the other figures follow it.
const SETTLE_MS = 300;

/// `text` as the page's h (a number in PAGE_H, read as every figure's parameters are), else null.
const parseH = (text: string | null): number | null =>
  text === null ? null : parseParam({ kind: 'number', label: 'one h', default: PAGE_H.min, min: PAGE_H.min, max: PAGE_H.max, scale: 'log' }, text);

/// The page's h from the address (the first `h=`), else null.
export function readPageH(search: URLSearchParams): number | null {
  return parseH(search.get(PAGE_H_PARAM));
}

/// The notes on the address's `h=` entries (for pageParamNotes): repeated, or not an h.
export function pageHNotes(values: readonly string[]): string[] {
  const lines: string[] = [];
  const first = values[0] ?? '';
  if (values.length > 1) lines.push(`${PAGE_H_PARAM} is given ${values.length} times; the first, ${PAGE_H_PARAM}=${echoed(first)}, counts`);
  if (parseH(first) === null) {
    lines.push(`${PAGE_H_PARAM}=${echoed(first)}: one h for the whole page takes a number in [${PAGE_H.min}, ${PAGE_H.max}]; each figure keeps its own h`);
  }
  return lines;
}

/// The note of a figure whose own `h` in the address gives way to the page's (null: none).
export function givesWayNote(own: string | null, page: number | null): string | null {
  return own === null || page === null || Number(own) === page ? null : `h=${echoed(own)} gives way to the page's one h, ${PAGE_H_PARAM}=${page}`;
}

/// A figure the link reaches.
export interface LinkedFigure {
  /// The figure's h now (null before it mounts).
  h(): number | null;
  /// Shows the figure at `h`: re-mounted, or mounted later with it.
  show(h: number): void;
}

export interface OneH {
  /// The page's h while the link is on, else null.
  readonly value: number | null;
  /// A figure with a bandwidth `h` (its script loaded): it follows the link from now on.
  add(name: string, figure: LinkedFigure): void;
  /// A linked figure's h after its reader changed it.
  changed(name: string, h: number): void;
}

/// Wires the header's `form.kl-one-h` (a checkbox and a number field); `reflect` writes the page's
/// h into the address (null: the link is off); `firstH` is the h of the first figure on the page
/// that has one (as it shows it, or will mount with it), where linking starts unless the reader
/// typed an h. Without the form, nothing is linked.
export function linkOneH(
  form: HTMLFormElement | null,
  search: URLSearchParams,
  reflect: (h: number | null) => void,
  firstH: () => Promise<number | null>,
): OneH {
  const figures = new Map<string, LinkedFigure>();
  let value = readPageH(search);
  const toggle = form?.querySelector<HTMLInputElement>('input[type="checkbox"]');
  const field = form?.querySelector<HTMLInputElement>('input[type="number"]');
  const status = form?.querySelector<HTMLElement>('.kl-one-h__status');
  const error = form?.querySelector<HTMLElement>('.kl-one-h__error');
  if (!form || !toggle || !field || !status || !error) return { value: null, add: () => undefined, changed: () => undefined };

  field.min = String(PAGE_H.min);
  field.max = String(PAGE_H.max);
  const showValue = (h: number): void => {
    field.value = String(h);
    field.setAttribute('aria-invalid', 'false');
    error.textContent = '';
  };
  toggle.checked = value !== null;
  field.disabled = value === null;
  if (value !== null) showValue(value);

  let settle: ReturnType<typeof setTimeout> | undefined;
  /// Every linked figure but `except` at the page's h; says so once.
  const apply = (except?: string): void => {
    clearTimeout(settle);
    if (value === null) return;
    let moved = 0;
    for (const [name, figure] of figures) {
      if (name === except) continue;
      if (figure.h() !== value) moved += 1;
      figure.show(value);
    }
    status.textContent = `Every figure with a bandwidth h shows h = ${value}${moved ? '' : ' already'}.`;
  };

  toggle.addEventListener('change', () => {
    field.disabled = !toggle.checked;
    if (!toggle.checked) {
      value = null;
      clearTimeout(settle);
      reflect(null);
      status.textContent = 'Each figure keeps its own h now.';
      return;
    }
    // The field's h, else the h of the first figure on the page that has one (the reader's own).
    const typed = parseH(field.value);
    const start = typed !== null ? Promise.resolve(typed) : firstH().catch(() => null);
    void start.then((h) => {
      if (!toggle.checked || value !== null) return;  // unlinked meanwhile, or set from a figure
      value = Math.min(Math.max(h ?? PAGE_H.min, PAGE_H.min), PAGE_H.max);
      showValue(value);
      reflect(value);
      apply();
    });
  });
  field.addEventListener('change', () => {
    if (!toggle.checked) return;
    const h = parseH(field.value);
    if (h === null) {
      // The figures keep the last good h; the field says why it was not taken.
      field.setAttribute('aria-invalid', 'true');
      error.textContent = `h must be a number from ${PAGE_H.min} to ${PAGE_H.max}; ${value === null ? 'each figure keeps its own h' : `the figures keep h = ${value}`}.`;
      return;
    }
    value = h;
    showValue(h);
    reflect(h);
    apply();
  });
  form.addEventListener('submit', (event) => event.preventDefault());

  return {
    get value() {
      return value;
    },
    add(name, figure) {
      figures.set(name, figure);
      if (value !== null) figure.show(value);
    },
    changed(name, h) {
      if (value === null || h === value || !figures.has(name)) return;
      // Out of the page's range (a figure whose own range is wider): the page's h stays in range.
      value = Math.min(Math.max(h, PAGE_H.min), PAGE_H.max);
      showValue(value);
      reflect(value);
      clearTimeout(settle);
      // The figure itself follows too when its h was out of the page's range.
      const except = value === h ? name : undefined;
      settle = setTimeout(() => apply(except), SETTLE_MS);
    },
  };
}
