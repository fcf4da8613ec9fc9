import type { ThemeMode } from '../charts/theme';

/// `theme="light|dark|auto"` (attribute or query entry); anything else is `auto`.
export function themeMode(value: string | null): ThemeMode {
  return value === 'light' || value === 'dark' ? value : 'auto';
}
