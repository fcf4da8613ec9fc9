/// embed.html?widget=NAME&…: exactly one widget, no page chrome; other URL parameters set its state.
import './styles.css';
import { showEmbed } from './page/app';

void showEmbed(document.getElementById('kl-embed'));
