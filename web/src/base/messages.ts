/// The messages between a host page's loader (kernel-lens.js) and the Kernel Lens iframes on it.
/// Kept here, apart from the figure code, so the loader stays small.

/// Embed page → host: `{ type, widget, height }`, its document height in CSS pixels, on every
/// change and when asked.
export const HEIGHT_MESSAGE = 'kernel-lens:height';
/// Host → embed page: post your height again.
export const ASK_HEIGHT_MESSAGE = 'kernel-lens:ask-height';
/// Host → embed page: `{ type, theme: 'light' | 'dark' }`, the host page's theme.
export const HOST_THEME_MESSAGE = 'kernel-lens:host-theme';
/// Host → embed page: `{ type, paper: boolean }`, whether the host page asks for the paper look.
export const PAPER_MESSAGE = 'kernel-lens:paper';
/// Embed page → host: `{ type, count }`, the figure drew what it had to (its drawn count).
export const DRAWN_MESSAGE = 'kernel-lens:drawn';
