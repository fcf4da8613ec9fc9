/// index.html: the full page, or one widget alone when the address names one (`?widget=<name>`,
/// which is how the standalone file is embedded).
import './styles.css';
import { showEmbed, showPage } from './app';
import { applyTheme, themeMode } from './charts/theme';

// The page is its own theme root: `theme=light|dark` in the address, else the host's or the reader's.
applyTheme(document.documentElement, themeMode(new URLSearchParams(location.search).get('theme')));

if (new URLSearchParams(location.search).has('widget')) void showEmbed();
else void showPage();
