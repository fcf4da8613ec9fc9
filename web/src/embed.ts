/// embed.html?widget=NAME&…: exactly one widget, no page chrome; other URL parameters set its state.
import './styles.css';
import { showEmbed } from './app';
import { applyTheme, themeMode } from './charts/theme';

// The page is its own theme root: `theme=light|dark` in the address, else the host's or the reader's.
applyTheme(document.documentElement, themeMode(new URLSearchParams(location.search).get('theme')));

void showEmbed(document.getElementById('kl-embed'));
